// The staging side of an ingest run (migration 0013): rows are written here in short transactions
// while the run loads, where no reader looks, and moved into the statement tables — with the
// balances and bill totals they move — by the run's closing transaction, so they appear all at once.
// The move is INSERT … SELECT inside the store: no row crosses the wire again.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import {
  BANKING_COLUMNS,
  CREDIT_CARD_COLUMNS,
  SIGNATURE_COLUMNS,
  type NewBankingTransaction,
  type NewCreditCardTransaction,
  type StagedBankingTable,
  type StagedCreditCardTable,
} from '../tables.js';
import { BANKING_DOCUMENT, CREDIT_CARD_DOCUMENT, signed } from './search.js';
import { addBillTotals, applyBalances, openBills } from './insert.js';
import { registerCards } from '../cards/register.js';
import { chunks } from '../../../lib/chunks.js';
import { letOtherWritersIn } from '../../../db/retry.js';

type Trx = Kysely<Database>;

/** Rows per INSERT statement, under SQLite's bound-parameter limit for these widths. */
const BATCH = 500;
/** Rows per INSERT … SELECT of the move (several statements of one transaction). */
const MOVE_BATCH = 5_000;

type Columns<T> = ReadonlyArray<Exclude<keyof T, 'run_id' | 'seq'>>;
/** Compile-time check that a column list names every column of its table. */
type Every<T, L extends Columns<T>> = Exclude<keyof T, 'run_id' | 'seq' | L[number]> extends never ? L : never;

const BANKING_STAGED = [...BANKING_COLUMNS, ...SIGNATURE_COLUMNS] as const;
const CREDIT_CARD_STAGED = [...CREDIT_CARD_COLUMNS, ...SIGNATURE_COLUMNS] as const;
const bankingColumns: Every<StagedBankingTable, typeof BANKING_STAGED> = BANKING_STAGED;
const creditCardColumns: Every<StagedCreditCardTable, typeof CREDIT_CARD_STAGED> = CREDIT_CARD_STAGED;

/** The statement tables' column defaults: the staging tables have none. */
const DEFAULTS = { iof_amount_minor: 0, notes: '', conciled: 0, has_attachments: 0 };

export async function stageBanking(trx: Trx, runId: string, first: number, rows: NewBankingTransaction[]) {
  const staged = rows.map(({ id: _id, ingest_run_id: _run, ...row }, i) => ({
    ...DEFAULTS,
    ...signed(BANKING_DOCUMENT, row),
    run_id: runId,
    seq: first + i,
  }));
  for (const batch of chunks(staged, BATCH)) await trx.insertInto('ingest_banking_rows').values(batch).execute();
}

export async function stageCreditCards(trx: Trx, runId: string, first: number, rows: NewCreditCardTransaction[]) {
  const staged = rows.map(({ ingest_run_id: _run, ...row }, i) => ({
    ...DEFAULTS,
    ...signed(CREDIT_CARD_DOCUMENT, row),
    run_id: runId,
    seq: first + i,
  }));
  for (const batch of chunks(staged, BATCH)) await trx.insertInto('ingest_credit_card_rows').values(batch).execute();
}

/** Copies a run's staged rows into their statement table in file order, MOVE_BATCH rows a statement. */
async function moveInOrder(
  trx: Trx,
  staging: 'ingest_banking_rows' | 'ingest_credit_card_rows',
  target: 'banking_transactions' | 'credit_card_transactions',
  columns: readonly string[],
  runId: string,
  count: number,
  version: number,
) {
  for (let from = 0; from < count; from += MOVE_BATCH)
    await trx
      .insertInto(target)
      .columns([...columns, 'created_seq', 'change_seq'] as never)
      .expression((eb) =>
        eb
          .selectFrom(staging)
          .select([
            ...(columns as never[]),
            sql.lit(version).as('created_seq'),
            sql.lit(version).as('change_seq'),
          ] as never)
          .where('run_id', '=', runId)
          .where('seq', '>=', from)
          .where('seq', '<', from + MOVE_BATCH)
          .orderBy('seq'),
      )
      .execute();
}

/**
 * Moves a run's staged rows into the statement tables, in file order, and applies their totals. Call
 * in the closing transaction; `version`: the rows' change number (the change feeds).
 */
export async function moveStaged(
  trx: Trx,
  runId: string,
  counts: { banking: number; cards: number },
  now: Date,
  version: number,
) {
  await moveInOrder(trx, 'ingest_banking_rows', 'banking_transactions', bankingColumns, runId, counts.banking, version);
  // The bills the card rows are charged on exist before the rows (foreign key).
  const bills = await trx
    .selectFrom('ingest_credit_card_rows')
    .select(['company_id', 'bill_due_date', 'status', sql<string | number>`sum(brl_amount_minor)`.as('total')])
    .where('run_id', '=', runId)
    .groupBy(['company_id', 'bill_due_date', 'status'])
    .execute();
  const totals = await openBills(
    trx,
    bills.map((b) => ({ ...b, brl_amount_minor: Number(b.total) }) as unknown as NewCreditCardTransaction),
    now,
  );
  const cards = await trx
    .selectFrom('ingest_credit_card_rows')
    .select(['company_id', 'card_id'])
    .select((eb) => [
      eb.fn.max('final_card_number').as('final_card_number'),
      eb.fn.max('bearer_name').as('bearer_name'),
      eb.fn.max('user_id').as('user_id'),
    ])
    .where('run_id', '=', runId)
    .groupBy(['company_id', 'card_id'])
    .execute();
  await registerCards(trx, cards, now);
  await moveInOrder(
    trx,
    'ingest_credit_card_rows',
    'credit_card_transactions',
    creditCardColumns,
    runId,
    counts.cards,
    version,
  );
  // Totals last: on PostgreSQL the accounts' and bills' rows stay locked only for the end of the transaction.
  const balances = await trx
    .selectFrom('ingest_banking_rows')
    .select(['account_id', 'sub_type', 'status', sql<string | number>`sum(total_amount_minor)`.as('total')])
    .where('run_id', '=', runId)
    .groupBy(['account_id', 'sub_type', 'status'])
    .execute();
  await applyBalances(
    trx,
    balances.map((b) => ({ ...b, total_amount_minor: Number(b.total) }) as unknown as NewBankingTransaction),
    now,
  );
  await addBillTotals(trx, totals);
}

/** Deletes a run's staged rows, a short transaction per batch. */
export async function dropStaged(db: Trx, runId: string): Promise<void> {
  for (const table of ['ingest_banking_rows', 'ingest_credit_card_rows'] as const) {
    for (;;) {
      const batch = await db
        .selectFrom(table)
        .select('seq')
        .where('run_id', '=', runId)
        .orderBy('seq')
        .limit(MOVE_BATCH)
        .execute();
      const last = batch.at(-1);
      if (!last) break;
      await db.deleteFrom(table).where('run_id', '=', runId).where('seq', '<=', last.seq).execute();
      await letOtherWritersIn(db);
    }
  }
}

/** Runs with staged rows left behind (a process that died between the closing transaction and the clean-up, or mid-run). */
export async function runsWithStagedRows(db: Trx): Promise<string[]> {
  const rows = await db
    .selectFrom('ingest_banking_rows')
    .select('run_id')
    .distinct()
    .union(db.selectFrom('ingest_credit_card_rows').select('run_id').distinct())
    .execute();
  return rows.map((r) => r.run_id);
}
