// The card statement's transaction types (CreditCardTransactionType), read from the record: a
// purchase in another currency is INTERNATIONAL_PURCHASE, else one with installments is
// INSTALLMENT_PURCHASE, else PURCHASE. One definition for the item's `type` and the `types` filter.
import type { ExpressionBuilder } from 'kysely';
import type { components } from '../../../generated/openapi.js';
import type { Database } from '../../db/database.js';
import type { CreditCardTransactionRow } from './tables.js';
import { badRequest } from '../../kit/errors.js';

export type CreditCardType = components['schemas']['CreditCardTransactionType'];

export const creditCardType = (t: Pick<CreditCardTransactionRow, 'currency' | 'installment_total'>): CreditCardType =>
  t.currency !== 'BRL' ? 'INTERNATIONAL_PURCHASE' : t.installment_total !== null ? 'INSTALLMENT_PURCHASE' : 'PURCHASE';

/** The condition keeping the records of `types` (columns of credit_card_transactions). */
export function ofTypes(eb: ExpressionBuilder<Database, 'credit_card_transactions'>, types: readonly CreditCardType[]) {
  return eb.or(
    types.map((type) =>
      type === 'INTERNATIONAL_PURCHASE'
        ? eb('currency', '!=', 'BRL')
        : eb.and([eb('currency', '=', 'BRL'), eb('installment_total', type === 'PURCHASE' ? 'is' : 'is not', null)]),
    ),
  );
}

/** The live API's widest window of the card statement list: `endDate` at most this many days after `startDate`. */
const MAX_WINDOW_DAYS = 62;

export function assertCardWindow(startDate: string | undefined, endDate: string | undefined): void {
  if (startDate === undefined || endDate === undefined) return;
  // Days counted, not dates compared as text: the day after 9999-12-31 is not a date of that shape.
  const days = (Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000;
  if (days > MAX_WINDOW_DAYS)
    throw badRequest(
      `startDate and endDate may be at most ${MAX_WINDOW_DAYS} days apart; for longer periods export the statement or follow its sync feed`,
      undefined,
      { reason: 'invalid_value', param: 'endDate' },
    );
}
