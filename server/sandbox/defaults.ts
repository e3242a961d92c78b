// The transaction helpers take as little as an amount: every field left out gets a realistic value
// consistent with the ones sent (a PIX sent or received on the company's first account, a
// restaurant purchase on the company's first card), so the complete line is checked and stored
// exactly as a full one would be.
import { createHash } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { Db } from '../db/database.js';
import { badRequest } from '../kit/errors.js';
import { newUlid } from '../lib/ulid.js';
import { fromMinor, toMinor } from '../lib/money.js';
import type { BankingLine, CreditCardLine } from '../areas/statements/ingest/convert.js';
import { COUNTERPARTS, MCCS, mccByCode, TRANSACTION_TYPES } from './seed/statements/catalog.js';

type Schemas = components['schemas'];
type BankingInput = Schemas['SandboxBankingTransactionCreate'];
type CreditCardInput = Schemas['SandboxCreditCardTransactionCreate'];

/** A restaurant: the purchase of a card when no merchant category is sent. */
const DEFAULT_MCC = MCCS.find((m) => m.code === 5812) ?? MCCS[0]!;
/** Banking types that are card purchases: they carry a merchant category. */
const CARD_TYPES = new Set<number>([TRANSACTION_TYPES.cardPurchase.id, TRANSACTION_TYPES.internationalPurchase.id]);
const NOT_RECONCILED = { description: 'Not reconciled', conciled: false };
/** An amount the statement's rules can add up; anything else is left for them to refuse. */
const minorOr0 = (amount: number | undefined) => {
  try {
    return toMinor(amount ?? 0);
  } catch {
    return 0;
  }
};

/** The company's first account (lowest id), or undefined when it has none. */
async function firstAccount(db: Db, companyId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('company_id', '=', companyId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

interface Card {
  cardId: string;
  finalCardNumber: string;
  bearerName: string;
}

/** The card of the company's statement (the one sent, else its first), or the company's sandbox card. */
async function cardOf(db: Db, companyId: string, cardId: string | undefined): Promise<Card> {
  let query = db
    .selectFrom('credit_card_transactions')
    .select(['card_id', 'final_card_number', 'bearer_name'])
    .where('company_id', '=', companyId);
  if (cardId !== undefined) query = query.where('card_id', '=', cardId.toLowerCase());
  const row = await query.orderBy('transaction_date').orderBy('id').limit(1).executeTakeFirst();
  if (row) return { cardId: row.card_id, finalCardNumber: row.final_card_number, bearerName: row.bearer_name };
  const digest = createHash('sha256').update(`sandbox-card:${companyId}`).digest('hex');
  const uuid = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-4${digest.slice(13, 16)}-a${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
  return {
    cardId: cardId ?? uuid,
    finalCardNumber: String(Number.parseInt(digest.slice(0, 8), 16) % 10_000).padStart(4, '0'),
    bearerName: 'SANDBOX CARD HOLDER',
  };
}

/** What the defaults of one request read from the store, each read once (a batch shares them). */
interface Lookups {
  firstAccount(): Promise<number | undefined>;
  card(cardId: string | undefined): Promise<Card>;
}

export function lookups(db: Db, companyId: string): Lookups {
  let account: Promise<number | undefined> | undefined;
  const cards = new Map<string, Promise<Card>>();
  return {
    firstAccount: () => (account ??= firstAccount(db, companyId)),
    card: (cardId) => {
      const key = cardId ?? '';
      let found = cards.get(key);
      if (!found) cards.set(key, (found = cardOf(db, companyId, cardId)));
      return found;
    },
  };
}

/** A banking line from what was sent: the rest filled in. */
export async function completeBanking(read: Lookups, now: Date, t: BankingInput): Promise<BankingLine> {
  const { direction: sentDirection, ...sent } = t;
  if (sentDirection !== undefined && sent.transactionType && sent.transactionType.subType !== sentDirection) {
    throw badRequest('direction must equal transactionType.subType', [
      `direction: ${sentDirection} differs from transactionType.subType ${sent.transactionType.subType}`,
    ]);
  }
  const direction = sent.transactionType?.subType ?? sentDirection ?? 'DEBIT';
  const type =
    sent.transactionType ?? (direction === 'CREDIT' ? TRANSACTION_TYPES.pixReceived : TRANSACTION_TYPES.pixSent);
  const accountId = sent.accountId ?? (await read.firstAccount());
  if (accountId === undefined) {
    throw badRequest('The company has no account: send accountId', ['accountId: the company has no account']);
  }
  const card = CARD_TYPES.has(type.id);
  const mcc = card ? (sent.mccCode != null ? mccByCode(sent.mccCode) : DEFAULT_MCC) : undefined;
  const counterpart = card
    ? (mcc?.merchants[0] ?? DEFAULT_MCC.merchants[0]!)
    : direction === 'CREDIT'
      ? COUNTERPARTS.customers[0]!
      : COUNTERPARTS.suppliers[0]!;
  const iofAmount = sent.iofAmount ?? 0;
  const feeServiceAmount = sent.feeServiceAmount ?? 0;
  const total = fromMinor(minorOr0(sent.brlAmount) + minorOr0(iofAmount) + minorOr0(feeServiceAmount));
  const category =
    mcc?.category ?? (direction === 'CREDIT' ? { code: 'INCOME', description: 'Recebimentos' } : undefined);
  return {
    transactionType: { ...type },
    status: sent.status ?? 2,
    accountId,
    finalCardNumber: sent.finalCardNumber ?? null,
    bearerName: sent.bearerName ?? null,
    transactionDate: sent.transactionDate ?? now.toISOString(),
    brlAmount: sent.brlAmount,
    usdAmount: sent.usdAmount ?? null,
    usdExchangeRate: sent.usdExchangeRate ?? null,
    usdExchangeRateDate: sent.usdExchangeRateDate ?? null,
    totalTransactionAmount: sent.totalTransactionAmount ?? total,
    iofAmount,
    feeServiceAmount,
    mccCode: sent.mccCode ?? mcc?.code ?? null,
    mccGroup: sent.mccGroup ?? mcc?.group ?? null,
    mccDescription: sent.mccDescription ?? mcc?.description ?? null,
    idPurchaseEvent: sent.idPurchaseEvent ?? null,
    sourceDestinationName: sent.sourceDestinationName ?? counterpart,
    placeEstablishment: sent.placeEstablishment ?? (card ? 'SAO PAULO - BR' : null),
    description: sent.description ?? (card ? counterpart : `${type.description.toUpperCase()} ${counterpart}`),
    notes: sent.notes ?? '',
    conciliation: sent.conciliation ?? NOT_RECONCILED,
    category:
      sent.category ??
      (category
        ? { id: category.code, description: category.description }
        : { id: 'SERVICES', description: 'Serviços' }),
    costCenter: sent.costCenter ?? null,
    user: sent.user ?? null,
    requesterUser: sent.requesterUser ?? null,
    customCategory: sent.customCategory ?? null,
  };
}

/** A credit-card line from what was sent: the rest filled in. */
export async function completeCreditCard(read: Lookups, now: Date, t: CreditCardInput): Promise<CreditCardLine> {
  const card =
    t.cardId !== undefined && t.finalCardNumber !== undefined && t.bearerName !== undefined
      ? { cardId: t.cardId, finalCardNumber: t.finalCardNumber, bearerName: t.bearerName }
      : await read.card(t.cardId);
  const mcc = t.mccCode !== undefined ? (mccByCode(t.mccCode) ?? DEFAULT_MCC) : DEFAULT_MCC;
  const merchantName = t.merchantName ?? mcc.merchants[0]!;
  const currency = t.currency ?? 'BRL';
  return {
    id: t.id ?? newUlid(),
    cardId: card.cardId,
    finalCardNumber: t.finalCardNumber ?? card.finalCardNumber,
    bearerName: t.bearerName ?? card.bearerName,
    transactionDate: t.transactionDate ?? now.toISOString(),
    description: t.description ?? merchantName,
    merchantName,
    mccCode: t.mccCode ?? mcc.code,
    amount: t.amount,
    currency,
    brlAmount:
      t.brlAmount ??
      (currency === 'BRL' || t.exchangeRate == null
        ? t.amount
        : fromMinor(Math.round(minorOr0(t.amount) * t.exchangeRate) + minorOr0(t.iofAmount))),
    exchangeRate: t.exchangeRate ?? null,
    iofAmount: t.iofAmount ?? 0,
    ...(t.installment ? { installment: t.installment } : {}),
    status: t.status ?? 2,
    notes: t.notes ?? '',
    conciliation: t.conciliation ?? NOT_RECONCILED,
    category: t.category ?? { id: mcc.category.code, description: mcc.category.description },
    customCategory: t.customCategory ?? null,
    costCenter: t.costCenter ?? null,
    user: t.user ?? null,
  };
}
