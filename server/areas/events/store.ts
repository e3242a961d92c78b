// Reading the event log (written by log.ts in the transactions of the changes).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { EventRow } from './tables.js';

type Db = Kysely<Database>;

interface EventQuery {
  types?: string[];
  createdAfter?: string;
  limit: number;
  /** Events older than this id (newest first). */
  beforeId?: string;
}

/** A page of the company's events, newest first (`limit + 1` rows: the extra one says more follow). */
export async function listEvents(db: Db, companyId: string, q: EventQuery): Promise<EventRow[]> {
  let query = db.selectFrom('events').selectAll().where('company_id', '=', companyId);
  if (q.types && q.types.length > 0) query = query.where('type', 'in', q.types);
  if (q.createdAfter) query = query.where('created_at', '>', q.createdAfter);
  if (q.beforeId) query = query.where('id', '<', q.beforeId);
  return query
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
}

export async function findEvent(db: Db, companyId: string, id: string): Promise<EventRow | undefined> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}
