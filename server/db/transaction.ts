// Write transactions for both stores. On SQLite every transaction begins IMMEDIATE (the driver,
// sqlite.ts), taking the write lock up front, so a read inside it can never be upgraded into a
// deadlock with another process. On PostgreSQL a write transaction runs SERIALIZABLE: the result is
// always that of some one-at-a-time order, the rule SQLite gives us, and a conflict aborts one side
// with 40001 (or 40P01 on a deadlock), which is run again a bounded number of times. Still failing
// afterwards, it surfaces as StoreBusyError (503 with Retry-After), never 500.
import type { Kysely, Transaction } from 'kysely';
import { backoff, isPostgresRetryable, StoreBusyError, storeEvents } from './errors.js';
import { storeKind } from './dialect.js';

const ATTEMPTS = 10;

export async function writeTransaction<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<DB>);
  if (storeKind(db) === 'sqlite') return db.transaction().execute(work);
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await db.transaction().setIsolationLevel('serializable').execute(work);
    } catch (err) {
      if (!isPostgresRetryable(err)) throw err;
      if (attempt + 1 >= ATTEMPTS) throw new StoreBusyError(err);
      storeEvents.transactionRetries += 1;
      await backoff(attempt, 5, 250);
    }
  }
}
