// Statement rows → the contract's shapes.
import { creditCardType } from './card-types.js';
import type { components } from '../../../generated/openapi.js';
import { fromMinor } from '../../lib/money.js';
import type { BankingItem } from './store/banking-page.js';
import type { CreditCardItem } from './store/credit-card-page.js';
import type { AttachmentSummary } from './store/attachments-of.js';
import { formatInstant } from '../../lib/time.js';

type Schemas = components['schemas'];
type AttachmentType = NonNullable<Schemas['TransactionAttachment']['type']>;

export const STATUS_NAMES = { 1: 'CANCELED', 2: 'PROCESSED', 3: 'PENDING' } as const;

export const contentPath = (attachmentId: string) => `/attachments/v1/content/${attachmentId}`;

const presentAttachment = (a: AttachmentSummary): Schemas['TransactionAttachment'] => ({
  id: a.id,
  name: a.name,
  type: a.content_type as AttachmentType,
  _links: { content: { href: contentPath(a.id), rel: 'content' } },
});

const conciliation = (conciled: number): Schemas['Conciliation'] =>
  conciled === 1 ? { description: 'Reconciled', conciled: true } : { description: 'Not reconciled', conciled: false };

const named = <T>(id: T | null, name: string | null, key: 'description' | 'name') =>
  id !== null && name !== null
    ? ({ id, [key]: name } as { id: T; description: string } & { id: T; name: string })
    : null;

/** The row's metadata: the JSON object its PATCHes wrote, `{}` when none. */
const metadataOf = (stored: string): Record<string, string> => JSON.parse(stored) as Record<string, string>;

interface SyncColumns {
  sync_status: Schemas['AccountingSync']['status'];
  sync_reference_id: string | null;
  sync_error: string | null;
  synced_at: string | null;
}

/** What the company's ERP recorded of the transaction (POST /accounting/v1/syncs). */
const accountingSync = (t: SyncColumns, timeZone: string): Schemas['AccountingSync'] => ({
  status: t.sync_status,
  referenceId: t.sync_reference_id,
  error: t.sync_error === null ? null : { message: t.sync_error },
  syncedAt: t.synced_at === null ? null : formatInstant(t.synced_at, timeZone),
});

const person = (id: string | null, email: string | null) => (id !== null && email !== null ? { id, email } : null);

export function presentBanking(t: BankingItem, timeZone: string): Schemas['BankingTransaction'] {
  return {
    id: t.id,
    transactionType: {
      id: t.transaction_type_id,
      description: t.transaction_type_description,
      icon: t.transaction_type_icon,
      subType: t.sub_type as 'DEBIT' | 'CREDIT',
    },
    companyId: t.company_id,
    status: t.status,
    statusDescription: STATUS_NAMES[t.status],
    accountId: t.account_id,
    finalCardNumber: t.final_card_number,
    bearerName: t.bearer_name,
    transactionDate: formatInstant(t.transaction_date, timeZone),
    brlAmount: fromMinor(t.brl_amount_minor),
    usdAmount: t.usd_amount_minor === null ? null : fromMinor(t.usd_amount_minor),
    usdExchangeRate: t.usd_exchange_rate,
    usdExchangeRateDate: t.usd_exchange_rate_date === null ? null : formatInstant(t.usd_exchange_rate_date, timeZone),
    totalTransactionAmount: fromMinor(t.total_amount_minor),
    iofAmount: fromMinor(t.iof_amount_minor),
    feeServiceAmount: fromMinor(t.fee_service_amount_minor),
    mccCode: t.mcc_code,
    mccGroup: t.mcc_group,
    mccDescription: t.mcc_description,
    idPurchaseEvent: t.id_purchase_event,
    sourceDestinationName: t.source_destination_name,
    placeEstablishment: t.place_establishment,
    description: t.description,
    notes: t.notes,
    attachments: t.attachments.map(presentAttachment),
    conciliation: conciliation(t.conciled),
    showReceipt: t.status === 2,
    category: { id: t.category_code, description: t.category_description },
    costCenter: named(t.cost_center_id, t.cost_center_name, 'description'),
    user: person(t.user_id, t.user_email),
    requesterUser: person(t.requester_user_id, t.requester_email),
    customCategory: named(t.custom_category_id, t.custom_category_name, 'name'),
    metadata: metadataOf(t.metadata),
    accountingSync: accountingSync(t, timeZone),
  };
}

export function presentCreditCard(t: CreditCardItem, timeZone: string): Schemas['CreditCardTransaction'] {
  return {
    id: t.id,
    type: creditCardType(t),
    cardId: t.card_id,
    finalCardNumber: t.final_card_number,
    bearerName: t.bearer_name,
    transactionDate: formatInstant(t.transaction_date, timeZone),
    description: t.description,
    merchantName: t.merchant_name,
    mccCode: t.mcc_code,
    amount: fromMinor(t.amount_minor),
    currency: t.currency,
    brlAmount: fromMinor(t.brl_amount_minor),
    exchangeRate: t.exchange_rate,
    iofAmount: fromMinor(t.iof_amount_minor),
    ...(t.installment_number !== null && t.installment_total !== null
      ? { installment: { number: t.installment_number, total: t.installment_total } }
      : {}),
    status: t.status,
    statusDescription: STATUS_NAMES[t.status],
    billDueDate: t.bill_due_date,
    notes: t.notes,
    conciliation: conciliation(t.conciled),
    category: { id: t.category_code, description: t.category_description },
    customCategory: named(t.custom_category_id, t.custom_category_name, 'name'),
    costCenter: named(t.cost_center_id, t.cost_center_name, 'description'),
    attachments: t.attachments.map(presentAttachment),
    user: person(t.user_id, t.user_email),
    metadata: metadataOf(t.metadata),
    accountingSync: accountingSync(t, timeZone),
  };
}
