// Reading the audit log (written by log.ts in the transactions of the actions) and its retention purge.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { AuditEntryRow } from './tables.js';

type Db = Kysely<Database>;

const DAY_MS = 24 * 60 * 60 * 1000;

interface AuditQuery {
  actions?: string[];
  actor?: string;
  /** Only entries created after this instant (ISO). */
  createdAfter: string;
  /** Only entries created before this instant (ISO). */
  createdBefore?: string;
  limit: number;
  /** Entries older than this id (newest first). */
  beforeId?: string;
}

/** The oldest instant still kept, `retentionDays` before `now`. */
export const retainedSince = (now: Date, retentionDays: number): string =>
  new Date(now.getTime() - retentionDays * DAY_MS).toISOString();

/** A page of the company's entries, newest first (`limit + 1` rows: the extra one says more follow). */
export async function listAuditEntries(db: Db, companyId: string, q: AuditQuery): Promise<AuditEntryRow[]> {
  let query = db
    .selectFrom('audit_entries')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('created_at', '>', q.createdAfter);
  if (q.actions && q.actions.length > 0) query = query.where('action', 'in', q.actions);
  if (q.actor) query = query.where('actor', '=', q.actor);
  if (q.createdBefore) query = query.where('created_at', '<', q.createdBefore);
  if (q.beforeId) query = query.where('id', '<', q.beforeId);
  return query
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
}

/** Deletes the entries older than the retention (the worker's housekeeping); how many went. */
export async function purgeAuditEntries(db: Db, now: Date, retentionDays: number): Promise<number> {
  const result = await db
    .deleteFrom('audit_entries')
    .where('created_at', '<', retainedSince(now, retentionDays))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
