// The one retry policy of the store: what is worth running again, how often, and how long to wait.
// Two things are retried, each by its owner:
//  - a SQLite lock held by another process (`LOCK`): a statement or BEGIN runs again for up to
//    4 seconds (better-sqlite3 waits synchronously, so its own busy timeout is kept tiny);
//  - a PostgreSQL serialization conflict or deadlock (`CONFLICT`): the whole write transaction runs
//    again, at most 10 times.
// Still failing afterwards, the caller gets StoreBusyError: 503 with Retry-After, never 500.
import type { Kysely } from 'kysely';
import { storeKind } from './dialect.js';
import { backoff, isPostgresRetryable, isSqliteBusy, StoreBusyError, storeEvents } from './errors.js';

interface RetryPolicy {
  retryable: (err: unknown) => boolean;
  /** Runs at most this many times… */
  attempts?: number;
  /** …or keeps trying for this long. */
  withinMs?: number;
  /** Backoff: 0..min(capMs, baseMs·2^attempt) ms, full jitter. */
  baseMs: number;
  capMs: number;
  /** Counts each retry (the metrics read them). */
  onRetry?: () => void;
}

/** Waiters poll at most every 10 ms: SQLite has no queue for its write lock, so a waiter notices it is
 * free only when it next tries (a failed try costs microseconds). */
export const LOCK: RetryPolicy = { retryable: isSqliteBusy, withinMs: 4_000, baseMs: 2, capMs: 10 };

export const CONFLICT: RetryPolicy = {
  retryable: isPostgresRetryable,
  attempts: 10,
  baseMs: 5,
  capMs: 250,
  onRetry: () => {
    storeEvents.transactionRetries += 1;
  },
};

export async function retrying<T>(policy: RetryPolicy, run: () => T | Promise<T>): Promise<T> {
  const deadline = policy.withinMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + policy.withinMs;
  const attempts = policy.attempts ?? Number.POSITIVE_INFINITY;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await run();
    } catch (err) {
      if (!policy.retryable(err)) throw err;
      if (attempt + 1 >= attempts || Date.now() >= deadline) throw new StoreBusyError(err);
      policy.onRetry?.();
      await backoff(attempt, policy.baseMs, policy.capMs);
    }
  }
}

/**
 * Between two transactions of a long batch (an ingest's staging chunks): on SQLite, a pause longer than
 * a waiting writer's longest poll, so writers of other processes get the lock in between. Without it a
 * batch that commits and begins again at once holds them off for its whole length (the lock is free for
 * microseconds). PostgreSQL locks rows, and a batch's new rows are in nobody's way: no pause.
 */
export async function letOtherWritersIn(db: Kysely<any>): Promise<void> {
  if (storeKind(db) === 'sqlite') await new Promise((resolve) => setTimeout(resolve, LOCK.capMs + 5));
}
