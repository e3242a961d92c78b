// A run's plan, drawn by fast-check from one seed: which operations the clients send, and when the
// process is killed. The same seed gives the same plan (CHECKER_SEED replays it); the interleaving
// the machine then produces is the part a seed cannot fix, so a failing seed is worth a few runs.
import fc from 'fast-check';
import type { Statement } from './history.js';

/** Rows of each statement the PATCHes aim at: few, so that writers meet on them. */
export const HOT_ROWS = 6;

export type Op =
  /**
   * A sandbox create with an Idempotency-Key: one transaction, or a batch of `size`. The first
   * attempts are abandoned after `abandons` ms each, then it is retried with the same key and body
   * until answered; `twins` copies of it are sent at once.
   */
  | { kind: 'create'; statement: Statement; batch: boolean; size: number; abandons: number[]; twins: number }
  /** `racers` PATCHes of one row at once, all with the ETag read just before (or none). */
  | { kind: 'patch'; statement: Statement; row: number; racers: number; ifMatch: boolean; category: boolean }
  /** `racers` batch PATCHes at once of the same rows, each item with the ETag read just before. */
  | { kind: 'batch'; statement: Statement; rows: number[]; racers: number }
  /** Catches the run's ledger of the statement up through its change feed, `limit` per page. */
  | { kind: 'feed'; statement: Statement; limit: number };

export interface Plan {
  clients: number;
  ops: Op[];
  /** The process is killed when this many operations have started (then once a keyed write is in flight, plus `delayMs`). */
  crashes: Array<{ afterOps: number; delayMs: number }>;
  /** Pause of a client between its operations. */
  pausesMs: number[];
}

const statement = fc.constantFrom<Statement>('banking', 'banking', 'credit-card');

const create = fc.record({
  kind: fc.constant('create' as const),
  statement,
  batch: fc.boolean(),
  size: fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }) },
    { weight: 1, arbitrary: fc.integer({ min: 4, max: 40 }) },
    { weight: 2, arbitrary: fc.integer({ min: 100, max: 300 }) },
  ),
  abandons: fc.array(fc.integer({ min: 2, max: 40 }), { maxLength: 3 }),
  twins: fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 4 }) }),
});

const patch = fc.record({
  kind: fc.constant('patch' as const),
  statement,
  row: fc.nat(HOT_ROWS - 1),
  racers: fc.integer({ min: 2, max: 12 }),
  ifMatch: fc.boolean(),
  category: fc.boolean(),
});

const batch = fc.record({
  kind: fc.constant('batch' as const),
  statement,
  rows: fc.uniqueArray(fc.nat(HOT_ROWS - 1), { minLength: 1, maxLength: 4 }),
  racers: fc.integer({ min: 2, max: 4 }),
});

const feed = fc.record({ kind: fc.constant('feed' as const), statement, limit: fc.integer({ min: 20, max: 500 }) });

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: create },
  { weight: 3, arbitrary: patch },
  { weight: 2, arbitrary: batch },
  { weight: 1, arbitrary: feed },
);

const planOf = (length: number): fc.Arbitrary<Plan> =>
  fc
    .record({
      clients: fc.integer({ min: 4, max: 8 }),
      ops: fc.array(op, { minLength: length, maxLength: length }),
      crashes: fc.array(
        fc.record({
          afterOps: fc.integer({ min: Math.floor(length / 10), max: Math.floor((length * 4) / 5) }),
          delayMs: fc.integer({ min: 0, max: 30 }),
        }),
        {
          minLength: 1,
          maxLength: 2,
        },
      ),
      pausesMs: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: length, maxLength: length }),
    })
    .map((plan) => ({ ...plan, crashes: plan.crashes.sort((a, b) => a.afterOps - b.afterOps) }));

/** The plan of `seed`, `length` operations long. */
export function planFor(seed: number, length: number): Plan {
  return fc.sample(planOf(length), { seed, numRuns: 1 })[0]!;
}
