// The staging side of an ingest run (migration 0013): rows are written here in short transactions
// while the run loads, where no reader looks, and moved into the statement tables — with the
// balances and bill totals they move — by the run's closing transaction, so they appear all at once.
// The move is INSERT … SELECT inside the store: no row crosses the wire again. On SQLite each row is
// staged with the key it will be inserted under, taken ahead (server/db/keys-ahead.ts), and its search
// document written with it, so the closing transaction does not index the documents (on SQLite the
// costliest part of a row's insert: an FTS5 entry per character of its text).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { dropDocumentsAhead, idsAhead, rowidsBelow, writeDocumentsAhead } from '../../../db/keys-ahead.js';
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
/** Rows whose documents a run undone drops per transaction. */
const CHUNK = 1_000;

/** A staged row's place in its run and the key taken ahead for it (`K`): not copied as columns. */
type Columns<T, K> = ReadonlyArray<Exclude<keyof T, 'run_id' | 'seq' | K>>;
/** Compile-time check that a column list names every column of its table. */
type Every<T, K, L extends Columns<T, K>> =
  Exclude<keyof T, 'run_id' | 'seq' | K | L[number]> extends never ? L : never;

const BANKING_STAGED = [...BANKING_COLUMNS, ...SIGNATURE_COLUMNS] as const;
const CREDIT_CARD_STAGED = [...CREDIT_CARD_COLUMNS, ...SIGNATURE_COLUMNS] as const;
const bankingColumns: Every<StagedBankingTable, 'id', typeof BANKING_STAGED> = BANKING_STAGED;
const creditCardColumns: Every<StagedCreditCardTable, 'row_key', typeof CREDIT_CARD_STAGED> = CREDIT_CARD_STAGED;

/**
 * Each statement's staging table and statement table, the columns copied, the column of the key taken
 * ahead and the statement table's column it goes to.
 */
const STAGING = {
  banking: {
    table: 'ingest_banking_rows',
    into: 'banking_transactions',
    columns: bankingColumns,
    key: 'id',
    target: 'id',
    doc: BANKING_DOCUMENT,
  },
  cards: {
    table: 'ingest_credit_card_rows',
    into: 'credit_card_transactions',
    columns: creditCardColumns,
    key: 'row_key',
    target: 'rowid',
    doc: CREDIT_CARD_DOCUMENT,
  },
} as const;

/** The first key of each statement's rows in a run, taken by its first staging chunk (none on PostgreSQL). */
export interface RowKeys {
  banking?: number;
  cards?: number;
}

/** Takes the keys of a run's `n` banking rows: call it in the transaction that stages the first chunk. */
export const bankingIdsAhead = (trx: Trx, n: number) => idsAhead(trx, 'banking_transactions', n);

/** Takes the keys of a run's `n` credit-card rows: call it in the transaction that stages the first chunk. */
export const cardRowidsAhead = (trx: Trx, n: number) => rowidsBelow(trx, 'credit_card_transactions', STAGING.cards, n);

/** The staged rows `first…first+count-1` of a run. */
const stagedRange = (runId: string, first: number, count: number) =>
  sql<boolean>`run_id = ${runId} and seq >= ${first} and seq < ${first + count}`;

/** The statement tables' column defaults: the staging tables have none. */
const DEFAULTS = { iof_amount_minor: 0, notes: '', conciled: 0, has_attachments: 0 };

/** Stages banking rows `first…` of a run; `firstId`: the run's first id taken ahead (its row `first` gets `firstId + first`). */
export async function stageBanking(
  trx: Trx,
  runId: string,
  first: number,
  rows: NewBankingTransaction[],
  firstId?: number,
) {
  const staged = rows.map(({ id: _id, ingest_run_id: _run, ...row }, i) => ({
    ...DEFAULTS,
    ...signed(BANKING_DOCUMENT, row),
    run_id: runId,
    seq: first + i,
    id: firstId === undefined ? null : firstId + first + i,
  }));
  for (const batch of chunks(staged, BATCH)) await trx.insertInto('ingest_banking_rows').values(batch).execute();
  if (firstId !== undefined)
    await writeDocumentsAhead(trx, BANKING_DOCUMENT, {
      ...STAGING.banking,
      where: stagedRange(runId, first, rows.length),
    });
}

/** Stages credit-card rows `first…` of a run; `firstKey`: the run's first rowid taken ahead. */
export async function stageCreditCards(
  trx: Trx,
  runId: string,
  first: number,
  rows: NewCreditCardTransaction[],
  firstKey?: number,
) {
  const staged = rows.map(({ ingest_run_id: _run, ...row }, i) => ({
    ...DEFAULTS,
    ...signed(CREDIT_CARD_DOCUMENT, row),
    run_id: runId,
    seq: first + i,
    row_key: firstKey === undefined ? null : firstKey + first + i,
  }));
  for (const batch of chunks(staged, BATCH)) await trx.insertInto('ingest_credit_card_rows').values(batch).execute();
  if (firstKey !== undefined)
    await writeDocumentsAhead(trx, CREDIT_CARD_DOCUMENT, {
      ...STAGING.cards,
      where: stagedRange(runId, first, rows.length),
    });
}

/**
 * Copies a run's staged rows into their statement table in file order, MOVE_BATCH rows a statement,
 * under the keys taken ahead when `keyed`.
 */
async function moveInOrder(
  trx: Trx,
  staging: (typeof STAGING)[keyof typeof STAGING],
  runId: string,
  count: number,
  version: number,
  keyed: boolean,
) {
  for (let from = 0; from < count; from += MOVE_BATCH)
    await trx
      .insertInto(staging.into)
      .columns([...(keyed ? [staging.target] : []), ...staging.columns, 'created_seq', 'change_seq'] as never)
      .expression((eb) =>
        eb
          .selectFrom(staging.table)
          .select([
            ...((keyed ? [staging.key] : []) as never[]),
            ...(staging.columns as readonly string[] as never[]),
            sql.lit(version).as('created_seq'),
            sql.lit(version).as('change_seq'),
          ] as never)
          .where(stagedRange(runId, from, MOVE_BATCH))
          .orderBy('seq'),
      )
      .execute();
}

/**
 * Moves a run's staged rows into the statement tables, in file order, and applies their totals. Call
 * in the closing transaction; `rows`: the run's rows, as staged, whose totals and cards are taken from
 * them in memory rather than read back; `version`: the rows' change number (the change feeds).
 */
export async function moveStaged(
  trx: Trx,
  runId: string,
  rows: { banking: NewBankingTransaction[]; cards: NewCreditCardTransaction[] },
  now: Date,
  version: number,
  keys: RowKeys,
) {
  await moveInOrder(trx, STAGING.banking, runId, rows.banking.length, version, keys.banking !== undefined);
  // The bills and cards the card rows are charged on exist before the rows (foreign keys).
  const totals = await openBills(trx, rows.cards, now);
  await registerCards(trx, rows.cards, now);
  await moveInOrder(trx, STAGING.cards, runId, rows.cards.length, version, keys.cards !== undefined);
  // Totals last: on PostgreSQL the accounts' and bills' rows stay locked only for the end of the transaction.
  await applyBalances(trx, rows.banking, now);
  await addBillTotals(trx, totals);
}

/** Deletes the search documents written ahead for a run's staged rows (a run undone), a short transaction per chunk. */
export async function dropStagedDocuments(db: Trx, runId: string): Promise<void> {
  for (const staging of Object.values(STAGING)) {
    const { last } = await db
      .selectFrom(staging.table)
      .select((eb) => eb.fn.max('seq').as('last'))
      .where('run_id', '=', runId)
      .executeTakeFirstOrThrow();
    for (let from = 0; last !== null && from <= Number(last); from += CHUNK) {
      await dropDocumentsAhead(db, staging.doc, { ...staging, where: stagedRange(runId, from, CHUNK) });
      await letOtherWritersIn(db);
    }
  }
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
