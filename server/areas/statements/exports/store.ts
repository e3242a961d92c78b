// What an export reads besides its rows: the period a statement covers when no dates are given,
// and the number of the card an OFX credit-card statement names.
import type { Db } from '../../../db/database.js';

/**
 * The first and last transaction instants (UTC ISO) of the company's statement, if it has any: two
 * reads of one end of the `(company_id, transaction_date, id)` index each (min and max in one
 * statement would scan every row of the company between them on SQLite).
 */
export async function statementSpan(
  db: Db,
  table: 'banking_transactions' | 'credit_card_transactions',
  companyId: string,
): Promise<{ first: string; last: string } | undefined> {
  const end = (direction: 'asc' | 'desc') =>
    db
      .selectFrom(table)
      .select('transaction_date')
      .where('company_id', '=', companyId)
      .orderBy('transaction_date', direction)
      .limit(1)
      .executeTakeFirst();
  const [first, last] = [await end('asc'), await end('desc')];
  if (!first || !last) return undefined;
  return { first: String(first.transaction_date), last: String(last.transaction_date) };
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
