// Write transactions, the same code on both stores. Every one asks for SERIALIZABLE: the result is
// always that of some one-at-a-time order. On SQLite that is what the driver gives anyway (each
// transaction begins IMMEDIATE, sqlite.ts, taking the write lock before its first read, so a read
// inside it can never be upgraded into a deadlock with another process); on PostgreSQL a conflict
// aborts one side with 40001 (or 40P01 on a deadlock), which is run again (retry.ts, `CONFLICT`).
import type { Kysely, Transaction } from 'kysely';
import { CONFLICT, retrying } from './retry.js';

export async function writeTransaction<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<DB>);
  return retrying(CONFLICT, () => db.transaction().setIsolationLevel('serializable').execute(work));
}
