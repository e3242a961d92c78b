// What the statements' change order (server/areas/statements/versions.ts) does differently on each
// store, one function per need. SQLite runs writes one at a time: the next number is the company's
// largest plus one, taken inside the write. PostgreSQL writes concurrently: a company's numbered
// writes take its advisory lock (class STATEMENT_ORDER, key the company's hash) and draw from the
// sequence `statement_change_seq`, signalling the company's topic (change-signals.ts) at commit;
// an ingest run reserves its number before its closing transaction.
import { sql, type Kysely, type Transaction } from 'kysely';
import { storeKind } from './dialect.js';
import { guarded, guardedCommit, writeTransaction } from './transaction.js';
import { CONFLICT, retrying } from './retry.js';
import { signalSql } from './change-signals.js';

type ChangeTopic = Parameters<typeof signalSql>[0];

/** The advisory locks' first key: the statements' change order (the second is the company's hash). */
const STATEMENT_ORDER = 0x5354;
const lockKey = (companyId: string) => sql`${sql.lit(STATEMENT_ORDER)}, hashtext(${companyId})`;

/**
 * A write transaction (transaction.ts) in the company's change order: on PostgreSQL the order is
 * taken before the transaction begins and given back after it ends.
 */
export async function orderedWriteTransaction<DB, T>(
  db: Kysely<DB>,
  companyId: string,
  work: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  if (db.isTransaction || storeKind(db) === 'sqlite') return writeTransaction(db, work);
  const run = guarded(work);
  const value = await retrying(CONFLICT, () =>
    db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${lockKey(companyId)})`.execute(connection);
      try {
        return await connection.transaction().setIsolationLevel('serializable').execute(run);
      } finally {
        await sql`select pg_advisory_unlock(${lockKey(companyId)})`.execute(connection);
      }
    }),
  );
  guardedCommit();
  return value;
}

/**
 * The company's next change number, in the write's transaction, which then holds the company's
 * change order until it ends. `largest`: the company's largest number so far (read on SQLite only);
 * `topic`: signalled when the transaction commits (PostgreSQL).
 */
export async function nextChangeNumber(
  trx: Kysely<any>,
  companyId: string,
  largest: () => Promise<number>,
  topic: ChangeTopic,
): Promise<number> {
  if (storeKind(trx) === 'sqlite') return (await largest()) + 1;
  await sql`select pg_advisory_xact_lock(${lockKey(companyId)})`.execute(trx);
  const { rows } = await sql<{
    n: string | number;
  }>`select nextval('statement_change_seq') as n, ${signalSql(topic)}`.execute(trx);
  return Number(rows[0]!.n);
}

/**
 * Runs `reserve` where an ingest run's change number is taken ahead of its closing transaction
 * (PostgreSQL, whose other writers go on meanwhile); undefined where the closing transaction, run
 * alone, takes it itself (SQLite).
 */
export async function reservedAhead<T>(db: Kysely<any>, reserve: () => Promise<T>): Promise<T | undefined> {
  return storeKind(db) === 'sqlite' ? undefined : reserve();
}
