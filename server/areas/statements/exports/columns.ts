// The CSV columns of each statement export: every field of the list item, nested objects flattened
// with dotted names, attachments as a count. The contract's export operations list the same
// columns in their descriptions (test/statements.exports-csv.test.ts holds the two together).
import type { components } from '../../../../generated/openapi.js';

export type CellKind = 'text' | 'number' | 'date' | 'dateTime' | 'boolean' | 'count';
export type Column = readonly [path: string, kind: CellKind];

type BankingItem = components['schemas']['BankingTransaction'];
type CreditCardItem = components['schemas']['CreditCardTransaction'];

export const BANKING_COLUMNS: readonly Column[] = [
  ['id', 'number'],
  ['transactionType.id', 'number'],
  ['transactionType.description', 'text'],
  ['transactionType.icon', 'text'],
  ['transactionType.subType', 'text'],
  ['companyId', 'text'],
  ['status', 'number'],
  ['statusDescription', 'text'],
  ['accountId', 'number'],
  ['finalCardNumber', 'text'],
  ['bearerName', 'text'],
  ['transactionDate', 'dateTime'],
  ['brlAmount', 'number'],
  ['usdAmount', 'number'],
  ['usdExchangeRate', 'number'],
  ['usdExchangeRateDate', 'dateTime'],
  ['totalTransactionAmount', 'number'],
  ['iofAmount', 'number'],
  ['feeServiceAmount', 'number'],
  ['mccCode', 'number'],
  ['mccGroup', 'number'],
  ['mccDescription', 'text'],
  ['idPurchaseEvent', 'number'],
  ['sourceDestinationName', 'text'],
  ['placeEstablishment', 'text'],
  ['description', 'text'],
  ['notes', 'text'],
  ['attachments', 'count'],
  ['conciliation.description', 'text'],
  ['conciliation.conciled', 'boolean'],
  ['showReceipt', 'boolean'],
  ['category.id', 'text'],
  ['category.description', 'text'],
  ['costCenter.id', 'text'],
  ['costCenter.description', 'text'],
  ['user.id', 'text'],
  ['user.email', 'text'],
  ['requesterUser.id', 'text'],
  ['requesterUser.email', 'text'],
  ['customCategory.id', 'number'],
  ['customCategory.name', 'text'],
] satisfies ReadonlyArray<readonly [`${keyof BankingItem & string}${string}`, CellKind]>;

export const CREDIT_CARD_COLUMNS: readonly Column[] = [
  ['id', 'text'],
  ['cardId', 'text'],
  ['finalCardNumber', 'text'],
  ['bearerName', 'text'],
  ['transactionDate', 'dateTime'],
  ['description', 'text'],
  ['merchantName', 'text'],
  ['mccCode', 'number'],
  ['amount', 'number'],
  ['currency', 'text'],
  ['brlAmount', 'number'],
  ['exchangeRate', 'number'],
  ['iofAmount', 'number'],
  ['installment.number', 'number'],
  ['installment.total', 'number'],
  ['status', 'number'],
  ['statusDescription', 'text'],
  ['billDueDate', 'date'],
  ['notes', 'text'],
  ['attachments', 'count'],
  ['conciliation.description', 'text'],
  ['conciliation.conciled', 'boolean'],
  ['category.id', 'text'],
  ['category.description', 'text'],
  ['customCategory.id', 'number'],
  ['customCategory.name', 'text'],
  ['costCenter.id', 'text'],
  ['costCenter.description', 'text'],
  ['user.id', 'text'],
  ['user.email', 'text'],
] satisfies ReadonlyArray<readonly [`${keyof CreditCardItem & string}${string}`, CellKind]>;

/** The value at a dotted path of a presented item; undefined where an object on the way is absent. */
export function valueAt(item: object, path: string): unknown {
  let value: unknown = item;
  for (const key of path.split('.')) {
    if (value === null || value === undefined) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
