// The event log. `recordEvent` is called by every store that changes state, inside its
// transaction: the event, and one pending delivery per webhook endpoint that wants it, commit or
// roll back with the change. Events are kept 30 days.
import { monotonicFactory } from 'ulid';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EventRow } from './tables.js';
import type { EventType } from './types.js';
import { enqueueDeliveries } from '../webhooks/queue.js';

type Db = Kysely<Database>;

export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

const nextUlid = monotonicFactory();

export interface NewEvent {
  companyId: string;
  type: EventType;
  /** The request that made the change (`X-Request-Id`); null for changes made outside a request. */
  requestId: string | null | undefined;
  /** The resource as the API shows it — never card numbers. */
  object: unknown;
  /** The changed attributes' values before the change (updates only). */
  previousAttributes?: Record<string, unknown>;
}

/** Writes an event (and its webhook deliveries) with `db`, which should be the change's transaction. */
export async function recordEvent(db: Db, now: Date | string, event: NewEvent): Promise<EventRow> {
  const at = typeof now === 'string' ? new Date(now) : now;
  const row: EventRow = {
    id: `evt_${nextUlid(at.getTime())}`,
    company_id: event.companyId,
    type: event.type,
    created_at: at.toISOString(),
    request_id: event.requestId ?? null,
    data: JSON.stringify({
      object: event.object,
      ...(event.previousAttributes && Object.keys(event.previousAttributes).length > 0 ? { previousAttributes: event.previousAttributes } : {}),
    }),
  };
  await db.insertInto('events').values(row).execute();
  await enqueueDeliveries(db, row);
  return row;
}

/** The attributes of `before` whose value differs in `after`, with their old values. */
export function changedAttributes<T extends Record<string, unknown>>(before: T, after: T): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(after) as Array<keyof T>) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changed[key] = before[key];
  }
  return changed;
}

export interface EventQuery {
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
  return query.orderBy('id', 'desc').limit(q.limit + 1).execute();
}

export async function findEvent(db: Db, companyId: string, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

/** Deletes events older than 30 days (their deliveries go with them). */
export async function purgeEvents(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
  return db.transaction().execute(async (trx) => {
    const old = trx.selectFrom('events').select('id').where('created_at', '<', cutoff);
    await trx.deleteFrom('webhook_deliveries').where('event_id', 'in', old).execute();
    const result = await trx.deleteFrom('events').where('created_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
