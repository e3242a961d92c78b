// What an export reads besides its rows: the period a statement covers when no dates are given,
// and the balance an OFX banking statement ends with.
import type { Db } from '../../../db/database.js';

/** The first and last transaction instants (UTC ISO) of the company's statement, if it has any. */
export async function statementSpan(
  db: Db,
  table: 'banking_transactions' | 'credit_card_transactions',
  companyId: string,
): Promise<{ first: string; last: string } | undefined> {
  const row = await db
    .selectFrom(table)
    .select((eb) => [eb.fn.min('transaction_date').as('first'), eb.fn.max('transaction_date').as('last')])
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!row?.first || !row.last) return undefined;
  return { first: String(row.first), last: String(row.last) };
}

/** The balance (minor units) of one account of the company, or of all of them. */
export async function accountsBalance(db: Db, companyId: string, accountId?: number): Promise<number> {
  let query = db
    .selectFrom('accounts')
    .select((eb) => eb.fn.sum<number>('balance_minor').as('total'))
    .where('company_id', '=', companyId);
  if (accountId !== undefined) query = query.where('id', '=', accountId);
  const row = await query.executeTakeFirst();
  return Number(row?.total ?? 0);
}
