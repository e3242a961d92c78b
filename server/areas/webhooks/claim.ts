// Claiming due deliveries. Each endpoint's deliveries are a queue of their own, read from one index
// (migration 0035): a round finds the endpoints with pending deliveries, reads the head of each
// queue, and claims round-robin — every endpoint's first due delivery before any endpoint's second —
// so no endpoint's backlog stands in front of another's. A claim is a conditional UPDATE that makes
// the delivery its worker's for a minute: of two workers (or replicas) racing, exactly one gets it.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { WebhookDeliveryRow } from './tables.js';
import { UNCLAIMED } from './outbox.js';
import { chunks } from '../../lib/chunks.js';

type Db = Kysely<Database>;

/** How long a claimed delivery belongs to its worker (longer than an attempt's 10 s). */
const CLAIM_MS = 60_000;
/** Endpoints whose heads one statement reads (a UNION of that many index ranges). */
const HEADS_PER_QUERY = 100;

/**
 * The endpoints that have pending deliveries, found along the queue index one endpoint at a time (a
 * loose index scan): a few index lookups per endpoint however long its backlog, where a DISTINCT
 * would read every pending row.
 */
async function queuedEndpoints(db: Db): Promise<string[]> {
  const rows = await db
    .withRecursive('queued(endpoint_id)', (qc) =>
      qc
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.min<string | null>('endpoint_id').as('endpoint_id'))
        .where('status', '=', 'pending')
        .unionAll((eb) =>
          eb
            .selectFrom('queued')
            .select((q) =>
              q
                .selectFrom('webhook_deliveries as next')
                .select((n) => n.fn.min<string | null>('next.endpoint_id').as('endpoint_id'))
                .where('next.status', '=', 'pending')
                .whereRef('next.endpoint_id', '>', 'queued.endpoint_id')
                .as('endpoint_id'),
            )
            .where('queued.endpoint_id', 'is not', null),
        ),
    )
    .selectFrom('queued')
    .select('endpoint_id')
    .where('endpoint_id', 'is not', null)
    .execute();
  return rows.map((r) => r.endpoint_id as string);
}

interface Head {
  id: string;
  endpoint_id: string;
  next_attempt_at: string | null;
  claimed_until: string;
}

/** The first `take` due, unclaimed deliveries of each endpoint, in its queue's order (due time, then id). */
async function heads(db: Db, at: string, take: ReadonlyArray<[endpointId: string, rows: number]>): Promise<Head[]> {
  const out: Head[] = [];
  for (const batch of chunks(take, HEADS_PER_QUERY)) {
    const ranges = batch.map(([endpointId, rows]) =>
      db
        .selectFrom((sub) =>
          sub
            .selectFrom('webhook_deliveries')
            .select(['id', 'endpoint_id', 'next_attempt_at', 'claimed_until'])
            .where('status', '=', 'pending')
            .where('endpoint_id', '=', endpointId)
            .where('next_attempt_at', '<=', at)
            .where('claimed_until', '<', at)
            .orderBy('next_attempt_at')
            .orderBy('id')
            .limit(rows)
            .as('head'),
        )
        .selectAll(),
    );
    out.push(...(await ranges.reduce((all, range) => all.unionAll(range)).execute()));
  }
  return out;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** An endpoint queue's order: due first, then by id (the order the events were recorded). */
const queueOrder = (a: Head, b: Head) =>
  compare(a.next_attempt_at ?? '', b.next_attempt_at ?? '') || compare(a.id, b.id);

/**
 * Claims up to `limit` due deliveries, at most `room(endpointId)` of each endpoint, round-robin
 * (within a turn, the delivery due longest first).
 */
export async function claimDue(
  db: Db,
  now: Date,
  limit: number,
  room: (endpointId: string) => number,
): Promise<WebhookDeliveryRow[]> {
  if (limit <= 0) return [];
  const at = now.toISOString();
  const take = (await queuedEndpoints(db))
    .map((endpointId): [string, number] => [endpointId, Math.min(room(endpointId), limit)])
    .filter(([, rows]) => rows > 0);
  if (take.length === 0) return [];
  // Each endpoint's heads in its queue's order, numbered: the turn each would be sent in.
  const turns = new Map<string, number>();
  const order = (await heads(db, at, take))
    .sort((a, b) => compare(a.endpoint_id, b.endpoint_id) || queueOrder(a, b))
    .map((head) => {
      const turn = (turns.get(head.endpoint_id) ?? 0) + 1;
      turns.set(head.endpoint_id, turn);
      return { ...head, turn };
    })
    .sort((a, b) => a.turn - b.turn || queueOrder(a, b))
    .slice(0, limit);
  const until = new Date(now.getTime() + CLAIM_MS).toISOString();
  const claimed: WebhookDeliveryRow[] = [];
  for (const candidate of order) {
    const row = await db
      .updateTable('webhook_deliveries')
      .set({ claimed_until: until })
      .where('id', '=', candidate.id)
      .where('status', '=', 'pending')
      .where('claimed_until', '=', candidate.claimed_until)
      .returningAll()
      .executeTakeFirst();
    if (row) claimed.push(row);
  }
  return claimed;
}

/** Gives a claimed delivery back unattempted (its worker is stopping), for any worker to send at once. */
export async function releaseClaim(db: Db, delivery: WebhookDeliveryRow): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ claimed_until: UNCLAIMED })
    .where('id', '=', delivery.id)
    .where('claimed_until', '=', delivery.claimed_until)
    .execute();
}
