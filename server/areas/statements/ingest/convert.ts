// A validated ingest line → the row to store. Instants become UTC ISO; money becomes minor units.
import type { components } from '../../../../generated/openapi.js';
import { toMinor } from '../../../lib/money.js';
import type { NewBankingTransaction, NewCreditCardTransaction } from '../tables.js';
import { billDueDate } from '../bills/cycle.js';
import { localDate } from '../../../lib/time.js';

type Schemas = components['schemas'];
export type BankingLine = Omit<
  Schemas['BankingTransaction'],
  'id' | 'companyId' | 'statusDescription' | 'showReceipt' | 'attachments' | 'metadata' | 'accountingSync'
>;
export type CreditCardLine = Omit<
  Schemas['CreditCardTransaction'],
  'type' | 'statusDescription' | 'billDueDate' | 'attachments' | 'metadata' | 'accountingSync'
>;

const utc = (instant: string) => new Date(instant).toISOString();

/** Rules beyond the schema; each returns a problem or nothing. */
export function bankingProblems(t: BankingLine): string[] {
  const total = toMinor(t.brlAmount) + toMinor(t.iofAmount) + toMinor(t.feeServiceAmount);
  const problems: string[] = [];
  if (toMinor(t.totalTransactionAmount) !== total)
    problems.push('transaction.totalTransactionAmount must equal brlAmount + iofAmount + feeServiceAmount');
  if ((t.usdAmount === null) !== (t.usdExchangeRate === null))
    problems.push('transaction.usdAmount and usdExchangeRate must be both null or both set');
  if (t.conciliation.conciled && t.status !== 2)
    problems.push('transaction.conciliation.conciled can be true only for status 2');
  return problems;
}

export function creditCardProblems(t: CreditCardLine): string[] {
  const problems: string[] = [];
  if (t.installment && t.installment.number > t.installment.total)
    problems.push('transaction.installment.number must not exceed installment.total');
  if (t.currency === 'BRL' && toMinor(t.amount) !== toMinor(t.brlAmount))
    problems.push('transaction.brlAmount must equal amount for purchases in BRL');
  if (t.conciliation.conciled && t.status !== 2)
    problems.push('transaction.conciliation.conciled can be true only for status 2');
  return problems;
}

export function bankingRowOf(t: BankingLine, companyId: string, now: Date): NewBankingTransaction {
  return {
    company_id: companyId,
    account_id: t.accountId,
    transaction_type_id: t.transactionType.id,
    transaction_type_description: t.transactionType.description,
    transaction_type_icon: t.transactionType.icon,
    sub_type: t.transactionType.subType,
    status: t.status,
    final_card_number: t.finalCardNumber,
    bearer_name: t.bearerName,
    transaction_date: utc(t.transactionDate),
    brl_amount_minor: toMinor(t.brlAmount),
    usd_amount_minor: t.usdAmount === null ? null : toMinor(t.usdAmount),
    usd_exchange_rate: t.usdExchangeRate,
    usd_exchange_rate_date: t.usdExchangeRateDate === null ? null : utc(t.usdExchangeRateDate),
    total_amount_minor: toMinor(t.totalTransactionAmount),
    iof_amount_minor: toMinor(t.iofAmount),
    fee_service_amount_minor: toMinor(t.feeServiceAmount),
    mcc_code: t.mccCode,
    mcc_group: t.mccGroup,
    mcc_description: t.mccDescription,
    id_purchase_event: t.idPurchaseEvent,
    source_destination_name: t.sourceDestinationName,
    place_establishment: t.placeEstablishment,
    description: t.description,
    notes: t.notes,
    conciled: t.conciliation.conciled ? 1 : 0,
    conciled_at: t.conciliation.conciled ? now.toISOString() : null,
    category_code: t.category.id,
    category_description: t.category.description,
    custom_category_id: t.customCategory?.id ?? null,
    cost_center_id: t.costCenter?.id.toLowerCase() ?? null,
    user_id: t.user?.id.toLowerCase() ?? null,
    requester_user_id: t.requesterUser?.id.toLowerCase() ?? null,
    has_attachments: 0,
    created_at: now.toISOString(),
  };
}

export function creditCardRowOf(
  t: CreditCardLine,
  companyId: string,
  timeZone: string,
  now: Date,
): NewCreditCardTransaction {
  return {
    id: t.id,
    company_id: companyId,
    card_id: t.cardId.toLowerCase(),
    final_card_number: t.finalCardNumber,
    bearer_name: t.bearerName,
    transaction_date: utc(t.transactionDate),
    description: t.description,
    merchant_name: t.merchantName,
    mcc_code: t.mccCode,
    category_code: t.category.id,
    category_description: t.category.description,
    amount_minor: toMinor(t.amount),
    currency: t.currency,
    brl_amount_minor: toMinor(t.brlAmount),
    exchange_rate: t.exchangeRate,
    iof_amount_minor: toMinor(t.iofAmount),
    installment_number: t.installment?.number ?? null,
    installment_total: t.installment?.total ?? null,
    status: t.status,
    bill_due_date: billDueDate(localDate(t.transactionDate, timeZone), t.installment?.number ?? 1),
    notes: t.notes,
    conciled: t.conciliation.conciled ? 1 : 0,
    conciled_at: t.conciliation.conciled ? now.toISOString() : null,
    custom_category_id: t.customCategory?.id ?? null,
    cost_center_id: t.costCenter?.id.toLowerCase() ?? null,
    user_id: t.user?.id.toLowerCase() ?? null,
    has_attachments: 0,
    created_at: now.toISOString(),
  };
}
