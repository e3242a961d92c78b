// Bills: keyset pages by due date (newest first) and single bills.
import type { Db } from '../../../db/database.js';
import type { BillRow } from '../tables.js';

export async function listBills(db: Db, companyId: string, take: number, before?: string): Promise<BillRow[]> {
  let query = db.selectFrom('bills').selectAll().where('company_id', '=', companyId);
  if (before !== undefined) query = query.where('due_date', '<', before);
  return query.orderBy('due_date', 'desc').limit(take).execute();
}

export async function findBill(db: Db, companyId: string, dueDate: string): Promise<BillRow | undefined> {
  return db
    .selectFrom('bills')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('due_date', '=', dueDate)
    .executeTakeFirst();
}
