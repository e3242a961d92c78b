// Publishing an ingest without stalling the API: rows go in short write transactions of CHUNK rows
// (each holds the write lock for a fraction of a second; the API's writes run in between), tagged
// with their run. Every line was checked before the first chunk, so a later failure is rare (a
// concurrent ingest taking the same credit-card id, a lost connection); then the run is undone:
// its rows deleted and the balances and bill totals they moved restored. A process that died
// mid-run leaves a LOADING run whose heartbeat stops; the next ingest undoes it first.
import { ulid } from 'ulid';
import type { Db } from '../../../db/database.js';
import { writeTransaction } from '../../../db/transaction.js';
import type { NewBankingTransaction, NewCreditCardTransaction } from '../tables.js';
import { addBillTotals, applyBalances, insertBankingTransactions, insertCreditCardTransactions } from './insert.js';

/** Rows per publishing transaction. */
const CHUNK = 1_000;
/** A LOADING run without a heartbeat for this long belongs to a process that died. */
export const ABANDONED_RUN_MS = 10 * 60_000;

export async function publishIngest(
  db: Db,
  companyId: string,
  banking: NewBankingTransaction[],
  cards: NewCreditCardTransaction[],
  now: Date,
  onProgress?: (phase: 'storing', done: number) => void,
  /** Written in the transaction that marks the run done (the lines' keys, the event). */
  finish?: (trx: Db) => Promise<void>,
): Promise<void> {
  await undoAbandonedRuns(db, now);
  const runId = ulid();
  const at = () => new Date().toISOString();
  await db
    .insertInto('ingest_runs')
    .values({ id: runId, company_id: companyId, status: 'LOADING', started_at: at(), heartbeat_at: at() })
    .execute();
  try {
    for (let i = 0; i < banking.length; i += CHUNK) {
      const chunk = banking.slice(i, i + CHUNK).map((row) => ({ ...row, ingest_run_id: runId }));
      await writeTransaction(db, async (trx) => {
        await insertBankingTransactions(trx, chunk, now);
        await trx.updateTable('ingest_runs').set({ heartbeat_at: at() }).where('id', '=', runId).execute();
      });
      onProgress?.('storing', Math.min(banking.length, i + CHUNK));
    }
    for (let i = 0; i < cards.length; i += CHUNK) {
      const chunk = cards.slice(i, i + CHUNK).map((row) => ({ ...row, ingest_run_id: runId }));
      await writeTransaction(db, async (trx) => {
        await insertCreditCardTransactions(trx, chunk, now);
        await trx.updateTable('ingest_runs').set({ heartbeat_at: at() }).where('id', '=', runId).execute();
      });
      onProgress?.('storing', banking.length + Math.min(cards.length, i + CHUNK));
    }
    await writeTransaction(db, async (trx) => {
      await trx
        .updateTable('ingest_runs')
        .set({ status: 'DONE', heartbeat_at: at() })
        .where('id', '=', runId)
        .execute();
      await finish?.(trx);
    });
  } catch (err) {
    await undoRun(db, runId, now);
    throw err;
  }
}

/** Deletes a run's rows, chunk by chunk, restoring the balances and bill totals they had moved. */
async function undoRun(db: Db, runId: string, now: Date): Promise<void> {
  for (;;) {
    const left = await writeTransaction(db, async (trx) => {
      const rows = await trx
        .selectFrom('banking_transactions')
        .select(['id', 'account_id', 'sub_type', 'status', 'total_amount_minor'])
        .where('ingest_run_id', '=', runId)
        .limit(CHUNK)
        .execute();
      if (rows.length === 0) return 0;
      // Attachments cannot exist on rows no caller had time to see; remove any to keep the foreign key.
      await trx
        .deleteFrom('attachments')
        .where(
          'banking_transaction_id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      await trx
        .deleteFrom('banking_transactions')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      await applyBalances(
        trx,
        rows.map((r) => ({ ...r, total_amount_minor: -r.total_amount_minor }) as unknown as NewBankingTransaction),
        now,
      );
      return rows.length;
    });
    if (left === 0) break;
  }
  for (;;) {
    const left = await writeTransaction(db, async (trx) => {
      const rows = await trx
        .selectFrom('credit_card_transactions')
        .select(['id', 'company_id', 'bill_due_date', 'status', 'brl_amount_minor'])
        .where('ingest_run_id', '=', runId)
        .limit(CHUNK)
        .execute();
      if (rows.length === 0) return 0;
      await trx
        .deleteFrom('attachments')
        .where(
          'credit_card_transaction_id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      await trx
        .deleteFrom('credit_card_transactions')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      const totals = new Map<string, { companyId: string; dueDate: string; total: number }>();
      for (const r of rows) {
        const t = totals.get(r.bill_due_date) ?? { companyId: r.company_id, dueDate: r.bill_due_date, total: 0 };
        if (r.status === 2) t.total -= r.brl_amount_minor;
        totals.set(r.bill_due_date, t);
      }
      await addBillTotals(trx, [...totals.values()]);
      return rows.length;
    });
    if (left === 0) break;
  }
  await db.deleteFrom('ingest_runs').where('id', '=', runId).execute();
}

/** Undoes the runs of processes that died mid-ingest. */
export async function undoAbandonedRuns(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(Date.now() - ABANDONED_RUN_MS).toISOString();
  const runs = await db
    .selectFrom('ingest_runs')
    .select('id')
    .where('status', '=', 'LOADING')
    .where('heartbeat_at', '<', cutoff)
    .execute();
  for (const run of runs) await undoRun(db, run.id, now);
  return runs.length;
}
