// The durable delivery queue (table webhook_deliveries): one queue per endpoint, in one table. A
// delivery is enqueued in the transaction of its event (outbox.ts) and claimed by a worker
// (claim.ts); here its attempts are recorded — succeeded, retry later with backoff, or failed for
// good — and it is read for the API and the metrics.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { WebhookDeliveryRow } from './tables.js';
import { UNCLAIMED } from './outbox.js';

type Db = Kysely<Database>;

interface AttemptOutcome {
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Records an attempt: done when it succeeded, else retried at `retryAt`, or failed for good when null. */
export async function recordAttempt(
  db: Db,
  delivery: WebhookDeliveryRow,
  outcome: AttemptOutcome & { succeeded: boolean; retryAt: Date | null },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.succeeded ? 'succeeded' : outcome.retryAt ? 'pending' : 'failed',
      attempts: delivery.attempts + 1,
      next_attempt_at: outcome.succeeded || !outcome.retryAt ? null : outcome.retryAt.toISOString(),
      claimed_until: UNCLAIMED,
      last_attempt_at: outcome.at.toISOString(),
      last_status_code: outcome.statusCode,
      last_error: outcome.error,
      last_duration_ms: outcome.durationMs,
    })
    .where('id', '=', delivery.id)
    .execute();
}

/** Makes a delivery due now again (a manual retry); false when the endpoint has no such delivery. */
export async function retryDelivery(
  db: Db,
  companyId: string,
  endpointId: string,
  id: string,
  now: Date,
): Promise<WebhookDeliveryRow | undefined> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now.toISOString(), claimed_until: UNCLAIMED })
    .where('company_id', '=', companyId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Gives up every pending delivery of an endpoint (it was disabled). */
export async function failPending(db: Db, endpointId: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/** A page of an endpoint's deliveries, newest first (`limit + 1` rows). */
export async function listDeliveries(db: Db, companyId: string, endpointId: string, limit: number, beforeId?: string) {
  let query = db
    .selectFrom('webhook_deliveries')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .selectAll('webhook_deliveries')
    .select('events.type as event_type')
    .where('webhook_deliveries.company_id', '=', companyId)
    .where('webhook_deliveries.endpoint_id', '=', endpointId);
  if (beforeId) query = query.where('webhook_deliveries.id', '<', beforeId);
  return query
    .orderBy('webhook_deliveries.id', 'desc')
    .limit(limit + 1)
    .execute();
}

export async function findDelivery(db: Db, companyId: string, endpointId: string, id: string) {
  return db
    .selectFrom('webhook_deliveries')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .selectAll('webhook_deliveries')
    .select('events.type as event_type')
    .where('webhook_deliveries.company_id', '=', companyId)
    .where('webhook_deliveries.endpoint_id', '=', endpointId)
    .where('webhook_deliveries.id', '=', id)
    .executeTakeFirst();
}

/** How many deliveries there are of each status (the metrics' gauge). */
export const deliveriesByStatus = (db: Db) =>
  db
    .selectFrom('webhook_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();

/** When the oldest delivery still pending was created (`oldest` null when none is). */
export const oldestPendingDelivery = (db: Db) =>
  db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min('created_at').as('oldest'))
    .where('status', '=', 'pending')
    .executeTakeFirst();
