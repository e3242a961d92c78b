// The delivery worker: a loop inside `finance serve` (and each replica) that claims due deliveries
// from the queue, sends them signed, and records the outcome. Every endpoint has slots of its own: at
// most 8 of its deliveries in flight (1 while its last attempt here failed, until one succeeds), 100
// in all, and an attempt ends after 10 s. A round claims into free slots only, round-robin across
// endpoints, and does not wait for the sends it starts; a send that ends frees its slot and starts the
// next round. So an endpoint that fails, hangs or is slow holds its own slots, never another's.
// `tick()` runs one round and waits for its sends (tests call it with a manual clock); `stop()` ends
// the loop.
import { failureLog } from '../../lib/failure-log.js';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { WebhookDeliveryRow } from './tables.js';
import { purgeEvents } from '../events/public.js';
import { claimDue } from './claim.js';
import { attempter } from './attempt.js';
import type { Resolve } from './url-policy.js';
import { pinnedFetch } from './pinned-fetch.js';

/** Deliveries of one endpoint in flight at once; of an endpoint whose last attempt failed. */
const PER_ENDPOINT = 8;
const PER_FAILING_ENDPOINT = 1;
/** Deliveries in flight at once, all endpoints together. */
const IN_FLIGHT = 100;
/** How long a stopping worker lets its sends finish before it abandons them. */
const STOP_GRACE_MS = 1_000;
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
  const attempt = attempter({ db, clock, wallClock, logger, allowPrivate, sender, random });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  /** A send ended while a round was running: run the next one at once. */
  let again = false;
  let stopped = true;
  let lastPurge = 0;
  let lastChores = Number.NEGATIVE_INFINITY;
  /** Sends in flight, and how many of them each endpoint has. */
  const sends = new Set<Promise<void>>();
  const inFlight = new Map<string, number>();
  /** Endpoints whose last attempt by this worker failed (a hint for the slots, kept by each worker). */
  const failing = new Set<string>();
  /** Aborted when a stopping worker abandons its sends. */
  let halt = new AbortController();

  const room = (endpointId: string) =>
    (failing.has(endpointId) ? PER_FAILING_ENDPOINT : PER_ENDPOINT) - (inFlight.get(endpointId) ?? 0);

  /** Sends a claimed delivery in one of its endpoint's slots; the slot, once free, starts a round. */
  function send(delivery: WebhookDeliveryRow): Promise<void> {
    const endpointId = delivery.endpoint_id;
    inFlight.set(endpointId, (inFlight.get(endpointId) ?? 0) + 1);
    const sent: Promise<void> = attempt(delivery, halt.signal)
      .then((result) => {
        if (result === 'failed') failing.add(endpointId);
        // Sent, or nothing to send (a disabled or deleted endpoint): not failing, and not kept.
        else if (result !== 'abandoned') failing.delete(endpointId);
      })
      .catch((err: unknown) => logger.error({ err, deliveryId: delivery.id }, 'webhook delivery failed'))
      .finally(() => {
        const left = (inFlight.get(endpointId) ?? 1) - 1;
        if (left > 0) inFlight.set(endpointId, left);
        else inFlight.delete(endpointId);
        sends.delete(sent);
        wake();
      });
    sends.add(sent);
    return sent;
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

  /** Claims what is due into the free slots and starts sending it; the sends started. */
  async function round(): Promise<Promise<void>[]> {
    await chores();
    const due = await claimDue(db, clock.now(), IN_FLIGHT - sends.size, room);
    const started = due.map(send);
    await purge();
    return started;
  }

  async function tick(): Promise<number> {
    const started = await round();
    await Promise.all(started);
    return started.length;
  }

  const schedule = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(loop, ms);
  };
  /** A slot was freed: the next round need not wait for the timer. */
  function wake(): void {
    if (stopped) return;
    if (running !== undefined) again = true;
    else schedule(0);
  }

  // A database outage fails every round: logged when it starts, every 10 s while it lasts, and when it ends.
  const rounds = failureLog(logger, 'webhook worker round');
  function loop(): void {
    timer = undefined;
    if (stopped) return;
    again = false;
    running = round()
      .then((started) => {
        rounds.succeeded();
        return started.length;
      })
      .catch((err: unknown) => {
        if (!stopped) rounds.failed(err);
        return 0;
      })
      .then((count) => {
        running = undefined;
        // Something claimed: more may be due. Otherwise the timer, or a slot freed before it.
        if (!stopped) schedule(count > 0 || again ? 0 : intervalMs);
      });
  }

  return {
    tick,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      // Sends in flight get a moment to end; the ones still waiting for an answer are then abandoned
      // and their deliveries released, for any worker to send at once rather than when the claim lapses.
      if (sends.size > 0) {
        await Promise.race([
          Promise.allSettled([...sends]),
          new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref()),
        ]);
        halt.abort();
        await Promise.allSettled([...sends]);
        halt = new AbortController();
      }
      await sender.close();
    },
  };
}
