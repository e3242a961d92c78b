// The webhooks' outbox: one pending delivery per enabled endpoint that wants an event, written by the
// events area's recordEvent inside the change's transaction, and removed with the events it purges.
// This file imports nothing of the events area, so the two areas' public modules form no cycle.
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { chunks } from '../../lib/chunks.js';
import { monotonicUlids } from '../../lib/ulid.js';
import type { WebhookDeliveryRow } from './tables.js';

type Db = Kysely<Database>;

/** Rows per INSERT of deliveries, under SQLite's bound-parameter limit. */
const DELIVERY_BATCH = 500;

const nextDeliveryId = monotonicUlids();
/** The epoch: a delivery no worker has claimed. */
export const UNCLAIMED = new Date(0).toISOString();

/** Does an endpoint with these enabled events want an event of `type`? */
const wants = (enabledEvents: string[], type: string) => enabledEvents.includes('*') || enabledEvents.includes(type);

/** One pending delivery per enabled endpoint of the company that wants the event, due at `wall`. */
export async function enqueueDeliveries(
  db: Db,
  companyId: string,
  events: readonly { id: string; type: string; company_id: string; created_at: string }[],
  wall: Date,
): Promise<void> {
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'enabled_events'])
    .where('company_id', '=', companyId)
    .where('status', '=', 'enabled')
    .execute();
  const enabled = endpoints.map((e) => ({ id: e.id, events: JSON.parse(e.enabled_events) as string[] }));
  const rows: WebhookDeliveryRow[] = events.flatMap((event) =>
    enabled
      .filter((e) => wants(e.events, event.type))
      .map((e) => ({
        id: `msg_${nextDeliveryId(wall.getTime())}`,
        company_id: event.company_id,
        endpoint_id: e.id,
        event_id: event.id,
        status: 'pending',
        attempts: 0,
        next_attempt_at: wall.toISOString(),
        claimed_until: UNCLAIMED,
        last_attempt_at: null,
        last_status_code: null,
        last_error: null,
        last_duration_ms: null,
        created_at: event.created_at,
      })),
  );
  for (const batch of chunks(rows, DELIVERY_BATCH)) await db.insertInto('webhook_deliveries').values(batch).execute();
}

/** Deletes the deliveries of the events `eventIds` selects (before those events are purged). */
export async function deleteDeliveriesOf(
  db: Db,
  eventIds: SelectQueryBuilder<Database, keyof Database, { id: string }>,
): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('event_id', 'in', eventIds).execute();
}
