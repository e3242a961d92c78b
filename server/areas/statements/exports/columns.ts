// The CSV columns of each statement export: every field of the list item, nested objects flattened
// with dotted names, attachments as a count; for the excel-br dialect, their headers and a few
// values in Portuguese. The contract's export operations list the same columns in their
// descriptions, docs/exports.md the Portuguese headers (test/statements.exports-csv.test.ts holds
// them together).
import type { components } from '../../../../generated/openapi.js';

/** `amount`: money, written with exactly two decimals; `number`: as it is (ids, codes, exchange rates). */
export type CellKind = 'text' | 'number' | 'amount' | 'date' | 'dateTime' | 'boolean' | 'count';
/** A column: its dotted path (the rfc4180 header), what it holds, its excel-br header, and its values in Portuguese. */
export type Column = readonly [path: string, kind: CellKind, header: string, values?: Readonly<Record<string, string>>];

/** The excel-br words for the values of a few text columns (others are written as they are). */
const DIRECTION = { DEBIT: 'Débito', CREDIT: 'Crédito' };
const STATUS = { CANCELED: 'Cancelada', PROCESSED: 'Processada', PENDING: 'Pendente' };
const CONCILIATION = { Reconciled: 'Conciliada', 'Not reconciled': 'Não conciliada' };
const CARD_TYPE = {
  PURCHASE: 'Compra',
  INSTALLMENT_PURCHASE: 'Compra parcelada',
  INTERNATIONAL_PURCHASE: 'Compra internacional',
} satisfies Record<CreditCardItem['type'], string>;

type BankingItem = components['schemas']['BankingTransaction'];
type CreditCardItem = components['schemas']['CreditCardTransaction'];

export const BANKING_COLUMNS: readonly Column[] = [
  ['id', 'number', 'ID'],
  ['transactionType.id', 'number', 'Tipo (ID)'],
  ['transactionType.description', 'text', 'Tipo'],
  ['transactionType.icon', 'text', 'Tipo (ícone)'],
  ['transactionType.subType', 'text', 'Natureza', DIRECTION],
  ['companyId', 'text', 'Empresa (ID)'],
  ['status', 'number', 'Situação (código)'],
  ['statusDescription', 'text', 'Situação', STATUS],
  ['accountId', 'number', 'Conta (ID)'],
  ['finalCardNumber', 'text', 'Final do cartão'],
  ['bearerName', 'text', 'Portador'],
  ['transactionDate', 'dateTime', 'Data'],
  ['brlAmount', 'amount', 'Valor (R$)'],
  ['usdAmount', 'amount', 'Valor (US$)'],
  ['usdExchangeRate', 'number', 'Cotação do dólar'],
  ['usdExchangeRateDate', 'dateTime', 'Data da cotação'],
  ['totalTransactionAmount', 'amount', 'Valor total (R$)'],
  ['iofAmount', 'amount', 'IOF (R$)'],
  ['feeServiceAmount', 'amount', 'Tarifa (R$)'],
  ['mccCode', 'number', 'MCC'],
  ['mccGroup', 'number', 'Grupo do MCC'],
  ['mccDescription', 'text', 'Descrição do MCC'],
  ['idPurchaseEvent', 'number', 'Compra (ID)'],
  ['sourceDestinationName', 'text', 'Origem/destino'],
  ['placeEstablishment', 'text', 'Local do estabelecimento'],
  ['description', 'text', 'Descrição'],
  ['notes', 'text', 'Observações'],
  ['attachments', 'count', 'Anexos'],
  ['conciliation.description', 'text', 'Conciliação', CONCILIATION],
  ['conciliation.conciled', 'boolean', 'Conciliada'],
  ['showReceipt', 'boolean', 'Comprovante disponível'],
  ['category.id', 'text', 'Categoria (ID)'],
  ['category.description', 'text', 'Categoria'],
  ['costCenter.id', 'text', 'Centro de custo (ID)'],
  ['costCenter.description', 'text', 'Centro de custo'],
  ['user.id', 'text', 'Usuário (ID)'],
  ['user.email', 'text', 'Usuário (e-mail)'],
  ['requesterUser.id', 'text', 'Solicitante (ID)'],
  ['requesterUser.email', 'text', 'Solicitante (e-mail)'],
  ['customCategory.id', 'number', 'Categoria da empresa (ID)'],
  ['customCategory.name', 'text', 'Categoria da empresa'],
] satisfies ReadonlyArray<readonly [`${keyof BankingItem & string}${string}`, CellKind, string, object?]>;

export const CREDIT_CARD_COLUMNS: readonly Column[] = [
  ['id', 'text', 'ID'],
  ['cardId', 'text', 'Cartão (ID)'],
  ['finalCardNumber', 'text', 'Final do cartão'],
  ['bearerName', 'text', 'Portador'],
  ['transactionDate', 'dateTime', 'Data'],
  ['description', 'text', 'Descrição'],
  ['merchantName', 'text', 'Estabelecimento'],
  ['mccCode', 'number', 'MCC'],
  ['amount', 'amount', 'Valor original'],
  ['currency', 'text', 'Moeda'],
  ['brlAmount', 'amount', 'Valor (R$)'],
  ['exchangeRate', 'number', 'Cotação'],
  ['iofAmount', 'amount', 'IOF (R$)'],
  ['installment.number', 'number', 'Parcela'],
  ['installment.total', 'number', 'Total de parcelas'],
  ['status', 'number', 'Situação (código)'],
  ['statusDescription', 'text', 'Situação', STATUS],
  ['billDueDate', 'date', 'Vencimento da fatura'],
  ['notes', 'text', 'Observações'],
  ['attachments', 'count', 'Anexos'],
  ['conciliation.description', 'text', 'Conciliação', CONCILIATION],
  ['conciliation.conciled', 'boolean', 'Conciliada'],
  ['category.id', 'text', 'Categoria (ID)'],
  ['category.description', 'text', 'Categoria'],
  ['customCategory.id', 'number', 'Categoria da empresa (ID)'],
  ['customCategory.name', 'text', 'Categoria da empresa'],
  ['costCenter.id', 'text', 'Centro de custo (ID)'],
  ['costCenter.description', 'text', 'Centro de custo'],
  ['user.id', 'text', 'Usuário (ID)'],
  ['user.email', 'text', 'Usuário (e-mail)'],
  // Added after the others, so that a reader of the columns by position finds them where they were.
  ['type', 'text', 'Tipo', CARD_TYPE],
] satisfies ReadonlyArray<readonly [`${keyof CreditCardItem & string}${string}`, CellKind, string, object?]>;

/** The value at a dotted path of a presented item; undefined where an object on the way is absent. */
export function valueAt(item: object, path: string): unknown {
  // A metadata cell is the item's own (metadata-columns.ts): its key may hold dots.
  if (Object.hasOwn(item, path)) return (item as Record<string, unknown>)[path];
  let value: unknown = item;
  for (const key of path.split('.')) {
    if (value === null || value === undefined) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
