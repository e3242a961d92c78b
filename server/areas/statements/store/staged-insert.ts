// Loading many statement rows while the API keeps serving. Rows are first staged, in small chunks,
// into temporary tables of this connection (no lock on the shared tables, so other processes write
// freely); then one short write transaction publishes them all with INSERT … SELECT (one statement
// per table, no per-row round trips) together with the balance and bill totals. Either every row
// lands or none: staging is private and dropped on any failure.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { writeTransaction } from '../../../db/transaction.js';
import type { NewBankingTransaction, NewCreditCardTransaction } from '../tables.js';
import { addBillTotals, applyBalances, openBills } from './insert.js';

type Db = Kysely<Database>;

/** Rows per staging INSERT: under SQLite's bound-parameter limit for these widths. */
const CHUNK = 500;

async function stage(conn: Db, source: 'banking_transactions' | 'credit_card_transactions', staging: string, rows: Array<Record<string, unknown>>, onChunk: (done: number) => void): Promise<string[]> {
  const columns = Object.keys(rows[0] ?? {}).filter((c) => c !== 'id' || source === 'credit_card_transactions');
  await sql`create temp table ${sql.table(staging)} as select * from ${sql.table(source)} where false`.execute(conn);
  await sql`alter table ${sql.table(staging)} add column stage_seq integer`.execute(conn);
  const staged = conn as unknown as Kysely<Record<string, Record<string, unknown>>>;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK).map((row, j) => ({ ...Object.fromEntries(columns.map((c) => [c, row[c] ?? null])), stage_seq: i + j }));
    await staged.insertInto(staging).values(chunk).execute();
    onChunk(Math.min(rows.length, i + CHUNK));
  }
  return columns;
}

async function publish(trx: Db, target: string, staging: string, columns: string[]): Promise<void> {
  const list = sql.join(columns.map((c) => sql.ref(c)));
  await sql`insert into ${sql.table(target)} (${list}) select ${list} from ${sql.table(staging)} order by stage_seq`.execute(trx);
}

export async function stageAndPublish(
  db: Db, banking: NewBankingTransaction[], cards: NewCreditCardTransaction[], now: Date,
  onProgress?: (phase: 'storing', done: number) => void,
): Promise<void> {
  await db.connection().execute(async (conn) => {
    const names = { banking: 'staged_banking_transactions', cards: 'staged_credit_card_transactions' };
    try {
      const bankingColumns = banking.length ? await stage(conn, 'banking_transactions', names.banking, banking as never, (n) => onProgress?.('storing', n)) : [];
      const cardColumns = cards.length ? await stage(conn, 'credit_card_transactions', names.cards, cards as never, (n) => onProgress?.('storing', banking.length + n)) : [];
      await writeTransaction(conn, async (trx) => {
        if (banking.length) {
          await publish(trx, 'banking_transactions', names.banking, bankingColumns);
          await applyBalances(trx, banking, now);
        }
        if (cards.length) {
          const totals = await openBills(trx, cards, now);
          await publish(trx, 'credit_card_transactions', names.cards, cardColumns);
          await addBillTotals(trx, totals);
        }
      });
    } finally {
      for (const name of Object.values(names)) await sql`drop table if exists ${sql.table(name)}`.execute(conn).catch(() => undefined);
    }
  });
}
