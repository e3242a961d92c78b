// The delivery worker: a timer loop inside `finance serve` (and each replica) that claims due
// deliveries from the queue, sends them signed, and records the outcome. `tick()` runs one round
// (tests call it with a manual clock); `stop()` ends the loop after the round in progress.
import { failureLog } from '../../lib/failure-log.js';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { WebhookDeliveryRow } from './tables.js';
import { findEvent, presentEvent, purgeEvents } from '../events/public.js';
import { claimDue, recordAttempt } from './queue.js';
import { nextAttemptAt } from './backoff.js';
import { findEndpointById, markEndpointFailing, markEndpointHealthy, signingSecrets } from './store.js';
import { signatureHeaders } from './sign.js';
import { urlShapeProblem, type Resolve } from './url-policy.js';
import { pinnedFetch } from './pinned-fetch.js';

const SEND_TIMEOUT_MS = 10_000;
const BATCH = 20;
const PURGE_EVERY_MS = 10 * 60 * 1000;
const CHORES_EVERY_MS = 60 * 1000;

interface WorkerOptions {
  db: Db;
  /** Schedules attempts and retries (tests pass a manual clock). */
  clock: Clock;
  /** The real time of sending, signed as `webhook-timestamp`: receivers compare it with their own clock. */
  wallClock?: Clock;
  logger: Logger;
  /** Private, loopback and link-local targets allowed (the sandbox). */
  allowPrivate: boolean;
  /** Pause between rounds when nothing was due. */
  intervalMs?: number;
  /** Resolves endpoint host names (DNS when not given; tests answer for themselves). */
  resolve?: Resolve;
  random?: () => number;
  /** Periodic chores of other areas (e.g. recording card expiries), run about once a minute. */
  housekeeping?: Array<(now: Date) => Promise<unknown>>;
}

export interface DeliveryWorker {
  /** One round: claim what is due, send it, record the outcomes. Resolves to the deliveries attempted. */
  tick(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createDeliveryWorker(options: WorkerOptions): DeliveryWorker {
  const { db, clock, logger, allowPrivate, intervalMs = 250, random = Math.random, wallClock = systemClock } = options;
  const sender = pinnedFetch({ allowPrivate, resolve: options.resolve });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  let lastPurge = 0;
  let lastChores = Number.NEGATIVE_INFINITY;

  async function deliver(delivery: WebhookDeliveryRow): Promise<void> {
    const endpoint = await findEndpointById(db, delivery.endpoint_id);
    const event = await findEvent(db, delivery.event_id);
    if (!endpoint || !event) return;
    if (endpoint.status !== 'enabled') {
      await recordAttempt(db, delivery, {
        at: clock.now(),
        statusCode: null,
        error: 'the endpoint is disabled',
        durationMs: 0,
        succeeded: false,
        retryAt: null,
      });
      return;
    }
    const startedAt = clock.now();
    const began = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    // The address written in the URL now; a name's addresses when the connection resolves it.
    const problem = urlShapeProblem(endpoint.url, allowPrivate);
    if (problem) {
      error = problem;
    } else {
      const body = JSON.stringify(presentEvent(event));
      try {
        const res = await sender.send(endpoint.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'CompanyFinance-Webhooks/1.0',
            ...signatureHeaders(delivery.id, wallClock.now(), body, signingSecrets(endpoint, startedAt)),
          },
          body,
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        statusCode = res.status;
        await res.body?.cancel().catch(() => undefined);
        if (res.status < 200 || res.status > 299) error = `the endpoint answered ${res.status}`;
      } catch (err) {
        error =
          err instanceof Error && err.name === 'TimeoutError'
            ? 'no answer within 10 s'
            : `could not connect: ${((err as Error).cause as Error | undefined)?.message ?? (err as Error).message}`;
      }
    }
    const durationMs = Math.round(performance.now() - began);
    const now = clock.now();
    const succeeded = error === null;
    const retryAt = succeeded ? null : nextAttemptAt(delivery.created_at, delivery.attempts + 1, now, random);
    await recordAttempt(db, delivery, { at: startedAt, statusCode, error, durationMs, succeeded, retryAt });
    if (succeeded) await markEndpointHealthy(db, endpoint.id);
    else if (await markEndpointFailing(db, endpoint.id, now))
      logger.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after 3 days of failures');
  }

  async function purge(): Promise<void> {
    const now = clock.now();
    if (now.getTime() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = now.getTime();
    await purgeEvents(db, now);
  }

  async function chores(): Promise<void> {
    const now = clock.now();
    if (now.getTime() - lastChores < CHORES_EVERY_MS) return;
    lastChores = now.getTime();
    for (const chore of options.housekeeping ?? []) await chore(now);
  }

  async function tick(): Promise<number> {
    await chores();
    const due = await claimDue(db, clock.now(), BATCH);
    await Promise.all(
      due.map((d) =>
        deliver(d).catch((err: unknown) => logger.error({ err, deliveryId: d.id }, 'webhook delivery failed')),
      ),
    );
    await purge();
    return due.length;
  }

  // A database outage fails every round: logged when it starts, every 10 s while it lasts, and when it ends.
  const rounds = failureLog(logger, 'webhook worker round');
  const loop = () => {
    if (stopped) return;
    running = tick()
      .then((count) => {
        rounds.succeeded();
        return count;
      })
      .catch((err: unknown) => {
        if (!stopped) rounds.failed(err);
        return 0;
      })
      .then((count) => {
        running = undefined;
        if (!stopped) timer = setTimeout(loop, count === BATCH ? 0 : intervalMs);
      });
  };

  return {
    tick,
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setTimeout(loop, 0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await sender.close();
    },
  };
}
