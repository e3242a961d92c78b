// Accounts, banking and credit-card transactions written through the statements store (which keeps
// balances and bill totals), with overridable defaults.
import { createHash, randomUUID } from 'node:crypto';
import { ulid } from 'ulid';
import type { Db } from '../../../server/db/database.js';
import type {
  NewBankingTransaction,
  NewCard,
  NewCreditCardTransaction,
} from '../../../server/areas/statements/tables.js';
import {
  insertBankingTransactions,
  insertCreditCardTransactions,
} from '../../../server/areas/statements/store/insert.js';
import { billDueDate } from '../../../server/areas/statements/bills/cycle.js';
import { localDate } from '../../../server/lib/time.js';

const NOW = new Date('2026-11-01T12:00:00.000Z');
let sequence = 0;
const next = () => (sequence += 1);

export async function createAccount(
  db: Db,
  companyId: string,
  overrides: { name?: string; openingMinor?: number } = {},
): Promise<number> {
  const n = next();
  const opening = overrides.openingMinor ?? 1_000_000;
  const row = await db
    .insertInto('accounts')
    .values({
      company_id: companyId,
      name: overrides.name ?? `Conta ${n}`,
      bank_code: '341',
      bank_name: 'Itaú Unibanco',
      branch: '0912',
      number: `${40000 + n}-${n % 10}`,
      currency: 'BRL',
      opening_balance_minor: opening,
      balance_minor: opening,
      blocked_minor: 0,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export type BankingOverrides = Partial<Omit<NewBankingTransaction, 'company_id' | 'account_id'>>;

export function bankingRow(
  companyId: string,
  accountId: number,
  overrides: BankingOverrides = {},
): NewBankingTransaction {
  const n = next();
  const brl = overrides.brl_amount_minor ?? 1000 + n;
  return {
    company_id: companyId,
    account_id: accountId,
    transaction_type_id: 1,
    transaction_type_description: 'Compra no cartão',
    transaction_type_icon: 'credit-card',
    sub_type: 'DEBIT',
    status: 2,
    final_card_number: '4021',
    bearer_name: 'MARIANA COSTA',
    transaction_date: new Date(Date.UTC(2026, 9, 1) + n * 60_000).toISOString(),
    brl_amount_minor: brl,
    usd_amount_minor: null,
    usd_exchange_rate: null,
    usd_exchange_rate_date: null,
    total_amount_minor: brl,
    iof_amount_minor: 0,
    fee_service_amount_minor: 0,
    mcc_code: 5812,
    mcc_group: 1,
    mcc_description: 'Restaurantes',
    id_purchase_event: 90000000 + n,
    source_destination_name: `RESTAURANTE ${n}`,
    place_establishment: 'SAO PAULO - BR',
    description: `RESTAURANTE ${n}`,
    notes: '',
    conciled: 0,
    conciled_at: null,
    category_code: 'FOOD',
    category_description: 'Alimentação',
    custom_category_id: null,
    cost_center_id: null,
    user_id: null,
    requester_user_id: null,
    has_attachments: 0,
    created_at: NOW.toISOString(),
    ...overrides,
  };
}

/** Inserts banking transactions (one per overrides object) and answers their ids in order. */
export async function createBankingTransactions(
  db: Db,
  companyId: string,
  accountId: number,
  list: BankingOverrides[],
): Promise<number[]> {
  return db.transaction().execute((trx) =>
    insertBankingTransactions(
      trx,
      list.map((o) => bankingRow(companyId, accountId, o)),
      NOW,
    ),
  );
}

export async function createBankingTransaction(
  db: Db,
  companyId: string,
  accountId: number,
  overrides: BankingOverrides = {},
): Promise<number> {
  const [id] = await createBankingTransactions(db, companyId, accountId, [overrides]);
  return id!;
}

type CreditCardOverrides = Partial<Omit<NewCreditCardTransaction, 'company_id'>>;

export function creditCardRow(companyId: string, overrides: CreditCardOverrides = {}): NewCreditCardTransaction {
  const n = next();
  const date = overrides.transaction_date ?? new Date(Date.UTC(2026, 9, 1) + n * 60_000).toISOString();
  const brl = overrides.brl_amount_minor ?? 2000 + n;
  return {
    id: ulid(Date.parse(date)),
    company_id: companyId,
    card_id: 'c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e',
    final_card_number: '4021',
    bearer_name: 'MARIANA COSTA',
    transaction_date: date,
    description: `LOJA ${n}`,
    merchant_name: `LOJA ${n}`,
    mcc_code: 5311,
    category_code: 'SHOPPING',
    category_description: 'Compras',
    amount_minor: brl,
    currency: 'BRL',
    brl_amount_minor: brl,
    exchange_rate: null,
    iof_amount_minor: 0,
    installment_number: null,
    installment_total: null,
    status: 2,
    bill_due_date: billDueDate(localDate(date, 'America/Sao_Paulo'), overrides.installment_number ?? 1),
    notes: '',
    conciled: 0,
    conciled_at: null,
    custom_category_id: null,
    cost_center_id: null,
    user_id: null,
    has_attachments: 0,
    created_at: NOW.toISOString(),
    ...overrides,
  };
}

export async function createCreditCardTransactions(
  db: Db,
  companyId: string,
  list: CreditCardOverrides[],
): Promise<string[]> {
  const rows = list.map((o) => creditCardRow(companyId, o));
  await db.transaction().execute((trx) => insertCreditCardTransactions(trx, rows, NOW));
  return rows.map((r) => r.id);
}

export async function createCreditCardTransaction(
  db: Db,
  companyId: string,
  overrides: CreditCardOverrides = {},
): Promise<string> {
  const [id] = await createCreditCardTransactions(db, companyId, [overrides]);
  return id!;
}

/** Attaches an already uploaded file (stored in the database) to a banking or credit-card transaction. */
export async function attachUploadedFile(
  db: Db,
  companyId: string,
  target: { bankingId: number } | { creditCardId: string },
  name = 'nota-fiscal.pdf',
): Promise<string> {
  const content = Buffer.from(`%PDF-1.4\n% ${name} ${next()}\n%%EOF\n`);
  const sha = createHash('sha256').update(content).digest('hex');
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('attachment_blobs')
      .values({ sha256: sha, content, size_bytes: content.length, created_at: NOW.toISOString() })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute();
    await trx
      .insertInto('attachments')
      .values({
        id,
        company_id: companyId,
        name,
        content_type: 'application/pdf',
        status: 'UPLOADED',
        size_bytes: content.length,
        sha256: sha,
        banking_transaction_id: 'bankingId' in target ? target.bankingId : null,
        credit_card_transaction_id: 'creditCardId' in target ? target.creditCardId : null,
        created_at: NOW.toISOString(),
        upload_expires_at: NOW.toISOString(),
        uploaded_at: NOW.toISOString(),
      })
      .execute();
    if ('bankingId' in target)
      await trx
        .updateTable('banking_transactions')
        .set({ has_attachments: 1 })
        .where('id', '=', target.bankingId)
        .execute();
    else
      await trx
        .updateTable('credit_card_transactions')
        .set({ has_attachments: 1 })
        .where('id', '=', target.creditCardId)
        .execute();
  });
  return id;
}

/** A corporate card written straight into the cards table (a random id and number unless overridden). */
export async function createCard(db: Db, companyId: string, overrides: Partial<Omit<NewCard, 'company_id'>> = {}) {
  const at = new Date(NOW.getTime() + next() * 1_000).toISOString();
  const card: NewCard = {
    company_id: companyId,
    id: randomUUID(),
    type: 'PHYSICAL',
    status: 'ACTIVATED',
    last4: String(next() % 10_000).padStart(4, '0'),
    holder_name: 'MARIANA COSTA',
    name: 'Cartão Mariana Costa',
    product_name: 'Corporate Platinum',
    responsible_user_id: null,
    cost_center_id: null,
    purpose: null,
    expiration_date: '2030-01-31',
    block_reason: null,
    created_at: at,
    updated_at: at,
    ...overrides,
  };
  await db.insertInto('cards').values(card).execute();
  return card;
}
