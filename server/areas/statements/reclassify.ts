// What deleting a category or cost center (the directory's) does to the statement transactions
// classified with it (the statements'): the one place the directory writes statement rows, named here
// so the write across areas is visible (test/areas.table-owners.test.ts). A transaction an ERP posted
// with the category or cost center is out of date.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { type Announcement, touchStatementRows } from './versions.js';
import { postedChanged } from './store/erp-state.js';

const STATEMENTS = ['banking_transactions', 'credit_card_transactions'] as const;

/** Reclassifies the company's transactions of categories `from` to `to`, or clears them when `to` is null. */
export async function reassignCategory(
  trx: Transaction<Database>,
  companyId: string,
  from: readonly number[],
  to: number | null,
  at: Announcement,
): Promise<void> {
  await touchStatementRows(trx, companyId, 'custom_category_id', from, at);
  for (const table of STATEMENTS) {
    await trx
      .updateTable(table)
      .set({ custom_category_id: to, sync_status: postedChanged })
      .where('company_id', '=', companyId)
      .where('custom_category_id', 'in', from)
      .execute();
  }
}

/** Clears the cost center from the company's transactions classified with it. */
export async function clearCostCenter(
  trx: Transaction<Database>,
  companyId: string,
  costCenterId: string,
  at: Announcement,
): Promise<void> {
  await touchStatementRows(trx, companyId, 'cost_center_id', [costCenterId], at);
  for (const table of STATEMENTS) {
    await trx
      .updateTable(table)
      .set({ cost_center_id: null, sync_status: postedChanged })
      .where('company_id', '=', companyId)
      .where('cost_center_id', '=', costCenterId)
      .execute();
  }
}
