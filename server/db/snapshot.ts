// Reads that must see one moment of the store, however long they take (statement exports).
// PostgreSQL: one REPEATABLE READ, READ ONLY transaction on one connection of the pool — every
// statement in it reads the snapshot taken by its first. SQLite: no transaction at all. A read
// transaction held for minutes on SQLite would keep the WAL from being checkpointed past it (the
// file grows while writers go on); its callers instead read in keyset chunks, each statement on its
// own, whose order keys never change after ingest, so a row that exists for the whole read is met
// exactly once.
import type { Kysely } from 'kysely';
import { storeKind } from './dialect.js';

export async function readSnapshot<DB, T>(db: Kysely<DB>, work: (reader: Kysely<DB>) => Promise<T>): Promise<T> {
  if (storeKind(db) === 'sqlite') return work(db);
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
}
