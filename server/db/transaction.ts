// Write transactions, the same code on both stores. Every one asks for SERIALIZABLE: the result is
// always that of some one-at-a-time order. On SQLite that is what the driver gives anyway (each
// transaction begins IMMEDIATE, sqlite.ts, taking the write lock before its first read, so a read
// inside it can never be upgraded into a deadlock with another process); on PostgreSQL a conflict
// aborts one side with 40001 (or 40P01 on a deadlock), which is run again (retry.ts, `CONFLICT`).
//
// Guards: what a request promises about its write is checked inside the write's own transaction, so
// that it holds whatever runs at the same time. A request's pipeline runs its handler under
// `guardWrites` (its `If-Match`, its `Idempotency-Key`); every outermost write transaction begun in
// that handler runs through each guard, which may refuse the write (throwing rolls it back), record
// something beside it (committed with it or not at all), or answer for it (an outcome already
// committed by an earlier attempt of the same request). So a handler derives its answer from what its
// write transactions return (ids, secrets drawn inside them), never from values it drew around them:
// answered for by a recorded outcome, those would be this attempt's, not the stored ones.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely, Transaction } from 'kysely';
import { CONFLICT, retrying } from './retry.js';

export interface WriteGuard {
  /** Runs `work` (the write's own statements, and the guards inside this one) in the write's transaction `trx`. */
  around<T>(trx: Transaction<any>, work: () => Promise<T>): Promise<T>;
  /** Told once the write's transaction has committed. */
  committed?(): void;
}

/** A request's guards, open while its handler runs (work it started and left running is not its write). */
interface GuardScope {
  readonly guards: readonly WriteGuard[];
  open: boolean;
}

const requestGuards = new AsyncLocalStorage<GuardScope>();

const openGuards = (): readonly WriteGuard[] | undefined => {
  const scope = requestGuards.getStore();
  return scope?.open ? scope.guards : undefined;
};

/** Runs `fn` with `guards` around each write transaction it begins (none: `fn` as it is). */
export async function guardWrites<R>(guards: readonly WriteGuard[], fn: () => Promise<R>): Promise<R> {
  if (guards.length === 0) return fn();
  const scope: GuardScope = { guards, open: true };
  try {
    return await requestGuards.run(scope, fn);
  } finally {
    scope.open = false;
  }
}

/**
 * Runs `fn` with no request guards: bookkeeping a request does around its effect that carries its own
 * guarantees (a reservation that holds a key itself, a lease), not the write its guards are about.
 */
export const unguarded = <R>(fn: () => R): R => requestGuards.exit(fn);

/** `work` with the current request's guards around it, when there are any. */
export function guarded<DB, T>(work: (trx: Transaction<DB>) => Promise<T>): (trx: Transaction<DB>) => Promise<T> {
  const guards = openGuards();
  if (guards === undefined) return work;
  return (trx) =>
    guards.reduceRight<() => Promise<T>>(
      (inner, guard) => () => guard.around(trx as Transaction<any>, inner),
      () => work(trx),
    )();
}

/** Tells the current request's guards that a write transaction committed. */
export function guardedCommit(): void {
  for (const guard of openGuards() ?? []) guard.committed?.();
}

export async function writeTransaction<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<DB>);
  const run = guarded(work);
  const value = await retrying(CONFLICT, () => db.transaction().setIsolationLevel('serializable').execute(run));
  guardedCommit();
  return value;
}
