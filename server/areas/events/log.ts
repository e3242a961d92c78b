// The event log's write side, shared by every area: `recordEvent` is called by each store that
// changes state, inside its transaction, so the event — and one pending webhook delivery per
// endpoint that wants it (the outbox) — commits or rolls back with the change. Also the event's
// public shape, and the 30-day purge.
import { monotonicUlids } from '../../lib/ulid.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { EventRow } from './tables.js';
import type { EventType } from './types.js';
import type { components } from '../../../generated/openapi.js';

type Schemas = components['schemas'];
import { writeTransaction } from '../../db/transaction.js';
import { clockOffset } from '../auth/public.js';
import { deleteDeliveriesOf, enqueueDeliveries } from '../webhooks/public.js';
import { chunks } from '../../lib/chunks.js';

/** Rows per INSERT of events or deliveries, under SQLite's bound-parameter limit. */
const EVENT_BATCH = 500;

type Db = Kysely<Database>;

export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

const nextEventId = monotonicUlids();

interface NewEvent {
  companyId: string;
  type: EventType;
  /** The request that made the change (`X-Request-Id`); null for changes made outside a request. */
  requestId: string | null | undefined;
  /** The API client whose token the request carried; null or absent outside a request. */
  clientId?: string | null;
  /** The resource as the API shows it — never card numbers. */
  object: unknown;
  /** The changed attributes' values before the change (updates only). */
  previousAttributes?: Record<string, unknown>;
  /** The card purchase behind a `vcn.authorized` or `vcn.declined` event. */
  authorization?: Schemas['VcnEventAuthorization'];
  /** Who made the change and why (`card.blocked`, `card.unblocked`). */
  action?: { clientId: string; reason: string | null };
  /** The company clock's offset `now` was read with, when the caller knows it (a request's actor). */
  clockOffsetMs?: number;
}

/** Writes an event (and its webhook deliveries) with `db`, which should be the change's transaction. */
export async function recordEvent(db: Db, now: Date | string, event: NewEvent): Promise<EventRow> {
  const [row] = await recordEvents(db, now, event.companyId, [event]);
  return row!;
}

/** Events of one company at one instant, in order: a few statements for any number (a file's new transactions). */
export async function recordEvents(
  db: Db,
  now: Date | string,
  companyId: string,
  events: ReadonlyArray<Omit<NewEvent, 'companyId'>>,
): Promise<EventRow[]> {
  if (events.length === 0) return [];
  const at = typeof now === 'string' ? new Date(now) : now;
  // `now` is the company's time; ids and the first delivery attempt follow wall time, so the log
  // keeps one order across processes and a company whose clock was moved ahead is not held back.
  const wall = new Date(at.getTime() - (events[0]!.clockOffsetMs ?? (await clockOffset(db, companyId))));
  const rows: EventRow[] = events.map((event) => ({
    id: `evt_${nextEventId(wall.getTime())}`,
    company_id: companyId,
    type: event.type,
    created_at: at.toISOString(),
    request_id: event.requestId ?? null,
    client_id: event.clientId ?? null,
    data: JSON.stringify({
      object: event.object,
      ...(event.previousAttributes && Object.keys(event.previousAttributes).length > 0
        ? { previousAttributes: event.previousAttributes }
        : {}),
      ...(event.authorization ? { authorization: event.authorization } : {}),
      ...(event.action ? { action: event.action } : {}),
    }),
  }));
  for (const batch of chunks(rows, EVENT_BATCH)) await db.insertInto('events').values(batch).execute();
  await enqueueDeliveries(db, companyId, rows, wall);
  return rows;
}

/** The attributes of `before` whose value differs in `after`, with their old values. */
export function changedAttributes<T extends object>(before: T, after: T): Partial<T> {
  const changed: Partial<T> = {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof T>;
  for (const key of keys) {
    const was = before[key];
    const is = after[key];
    // The same value (most attributes) needs no serializing; objects are compared by their JSON.
    if (was !== is && JSON.stringify(was) !== JSON.stringify(is)) changed[key] = was ?? (null as T[keyof T]);
  }
  return changed;
}

interface EventBody {
  id: string;
  type: string;
  createdAt: string;
  requestId: string | null;
  clientId: string | null;
  data: {
    object: Record<string, unknown>;
    previousAttributes?: Record<string, unknown>;
    authorization?: Schemas['VcnEventAuthorization'];
    action?: { clientId: string; reason: string | null };
  };
}

export const presentEvent = (row: EventRow): EventBody => ({
  id: row.id,
  type: row.type,
  createdAt: row.created_at,
  requestId: row.request_id,
  clientId: row.client_id ?? null,
  data: JSON.parse(row.data) as EventBody['data'],
});

/** The event `id`, or undefined when it was purged. */
export const findEvent = (db: Db, id: string): Promise<EventRow | undefined> =>
  db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();

/** Deletes events older than 30 days (their deliveries go with them). */
export async function purgeEvents(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
  return writeTransaction(db, async (trx) => {
    const old = trx.selectFrom('events').select('id').where('created_at', '<', cutoff);
    await deleteDeliveriesOf(trx, old);
    const result = await trx.deleteFrom('events').where('created_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
