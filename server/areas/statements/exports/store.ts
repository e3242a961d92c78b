// What an export reads besides its rows: the period a statement covers when no dates are given,
// and the number of the card an OFX credit-card statement names.
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

/** The last four digits of a card of the company, as its statement records show them. */
export async function cardNumber(db: Db, companyId: string, cardId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('credit_card_transactions')
    .select('final_card_number')
    .where('company_id', '=', companyId)
    .where('card_id', '=', cardId)
    .limit(1)
    .executeTakeFirst();
  return row?.final_card_number;
}
