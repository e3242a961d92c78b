// Writing statement rows (seed, ingest, tests): batched multi-row inserts that keep account
// balances and bill totals current. Call inside a transaction so rows and totals land together.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { NewBankingTransaction, NewCreditCardTransaction } from '../tables.js';
import { closingDateOf } from '../bills/cycle.js';
import { chunks } from '../../../lib/chunks.js';
import { nextStatementVersion } from '../versions.js';
import { registerCards } from '../cards/register.js';
import { BANKING_DOCUMENT, CREDIT_CARD_DOCUMENT, signed } from './search.js';

type Trx = Kysely<Database>;

/** Rows per INSERT statement, under SQLite's bound-parameter limit for these widths. */
const BATCH = 500;

/** The rows numbered with their company's next statement version (created and changed by this write: the change feeds). */
async function numbered<T extends { company_id: string }>(trx: Trx, rows: T[]): Promise<T[]> {
  const versions = new Map<string, number>();
  for (const { company_id } of rows)
    if (!versions.has(company_id)) versions.set(company_id, await nextStatementVersion(trx, company_id));
  return rows.map((row) => {
    const seq = versions.get(row.company_id)!;
    return { ...row, created_seq: seq, change_seq: seq };
  });
}

export async function insertBankingTransactions(trx: Trx, rows: NewBankingTransaction[], now: Date): Promise<number[]> {
  const ids: number[] = [];
  for (const batch of chunks(await numbered(trx, rows), BATCH)) {
    const values = batch.map((row) => signed(BANKING_DOCUMENT, row));
    const inserted = await trx.insertInto('banking_transactions').values(values).returning('id').execute();
    ids.push(...inserted.map((r) => r.id));
  }
  await applyBalances(trx, rows, now);
  return ids;
}

/** Keeps account balances current for newly inserted banking rows. */
export async function applyBalances(trx: Trx, rows: NewBankingTransaction[], now: Date): Promise<void> {
  const deltas = new Map<number, { balance: number; blocked: number }>();
  for (const row of rows) {
    const d = deltas.get(row.account_id) ?? { balance: 0, blocked: 0 };
    const signed = row.sub_type === 'CREDIT' ? row.total_amount_minor : -row.total_amount_minor;
    if (row.status === 2) d.balance += signed;
    if (row.status === 3 && row.sub_type === 'DEBIT') d.blocked += row.total_amount_minor;
    deltas.set(row.account_id, d);
  }
  for (const [accountId, d] of deltas) {
    await trx
      .updateTable('accounts')
      .set((eb) => ({
        balance_minor: eb('balance_minor', '+', d.balance),
        blocked_minor: eb('blocked_minor', '+', d.blocked),
        updated_at: now.toISOString(),
      }))
      .where('id', '=', accountId)
      .execute();
  }
}

/** Opens the bills the rows belong to (when absent); returns each bill's total of processed rows. */
export async function openBills(trx: Trx, rows: NewCreditCardTransaction[], now: Date) {
  const totals = new Map<string, { companyId: string; dueDate: string; total: number }>();
  for (const row of rows) {
    const key = `${row.company_id}|${row.bill_due_date}`;
    const t = totals.get(key) ?? { companyId: row.company_id, dueDate: row.bill_due_date, total: 0 };
    if (row.status === 2) t.total += row.brl_amount_minor;
    totals.set(key, t);
  }
  for (const t of totals.values()) {
    await trx
      .insertInto('bills')
      .values({
        company_id: t.companyId,
        due_date: t.dueDate,
        closing_date: closingDateOf(t.dueDate),
        currency: 'BRL',
        total_minor: 0,
        paid_at: null,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.columns(['company_id', 'due_date']).doNothing())
      .execute();
  }
  return [...totals.values()];
}

/** Adds processed rows' amounts to their bills' totals. */
export async function addBillTotals(
  trx: Trx,
  totals: Array<{ companyId: string; dueDate: string; total: number }>,
): Promise<void> {
  for (const t of totals) {
    if (t.total === 0) continue;
    await trx
      .updateTable('bills')
      .set((eb) => ({ total_minor: eb('total_minor', '+', t.total) }))
      .where('company_id', '=', t.companyId)
      .where('due_date', '=', t.dueDate)
      .execute();
  }
}

export async function insertCreditCardTransactions(
  trx: Trx,
  rows: NewCreditCardTransaction[],
  now: Date,
): Promise<void> {
  const totals = await openBills(trx, rows, now);
  await registerCards(trx, rows, now);
  for (const batch of chunks(await numbered(trx, rows), BATCH))
    await trx
      .insertInto('credit_card_transactions')
      .values(batch.map((row) => signed(CREDIT_CARD_DOCUMENT, row)))
      .execute();
  await addBillTotals(trx, totals);
}
