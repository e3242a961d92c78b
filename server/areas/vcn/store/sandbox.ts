// Sandbox card events, as the card network would raise them: purchases (approved or declined
// by the card's rules) and status changes. The network knows a card by its id, not its company.
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordVcnEvent, shownCard } from './events.js';
import { monotonicUlids } from '../../../lib/ulid.js';
import type { Database } from '../../../db/schema.js';
import { localDate } from '../../../lib/time.js';
import { effectiveStatus } from '../status.js';
import type { StoredVcnStatus, VcnRow, VcnTransactionRow } from '../tables.js';
import { issuedCard, spentOn, vcnNotFound } from './cards.js';
import { isAbandoned } from './provider.js';
import { writeTransaction } from '../../../db/transaction.js';

type DeclineReason =
  | 'CARD_BLOCKED'
  | 'CARD_CANCELLED'
  | 'CARD_EXPIRED'
  | 'NOT_YET_VALID'
  | 'PURCHASE_QUANTITY_EXCEEDED'
  | 'LIMIT_EXCEEDED';

const nextId = monotonicUlids();
const CODE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const authorizationCode = () =>
  Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

/** The card by id with its company's time zone (the card network's view). */
async function locate(db: Kysely<Database>, vcnId: string): Promise<VcnRow & { time_zone: string }> {
  const card = await db
    .selectFrom('vcns')
    .innerJoin('companies', 'companies.id', 'vcns.company_id')
    .selectAll('vcns')
    .select('companies.time_zone')
    .where('vcns.id', '=', vcnId)
    .where('vcns.status', '!=', 'PENDING')
    .executeTakeFirst();
  if (!card) throw vcnNotFound(vcnId);
  return issuedCard(card);
}

interface Purchase {
  vcnId: string;
  amountMinor: number;
  merchantName: string;
  merchantCategory: string;
  now: Date;
}

/** Authorizes a purchase in the card's currency: status, window, purchase count, then ceiling. */
export async function authorizePurchase(db: Kysely<Database>, purchase: Purchase): Promise<VcnTransactionRow> {
  if (!Number.isSafeInteger(purchase.amountMinor) || purchase.amountMinor <= 0)
    throw new Error('the amount must be positive');
  return writeTransaction(db, async (trx) => {
    const card = await locate(trx, purchase.vcnId);
    const today = localDate(purchase.now, card.time_zone);
    const { spentMinor, purchases } = await spentOn(trx, card.company_id, card.id);
    // While a top-up is in flight at the issuer, the stricter of the current and the new terms applies.
    const inFlight = card.change_started_at !== null && !isAbandoned(card.change_started_at, purchase.now);
    const ceiling = inFlight
      ? Math.min(card.limit_minor, card.change_limit_minor ?? card.limit_minor)
      : card.limit_minor;
    const lastDay =
      inFlight && card.change_end_date !== null && card.change_end_date < card.end_date
        ? card.change_end_date
        : card.end_date;
    const status = effectiveStatus(card.status, lastDay, today);
    const reason: DeclineReason | null =
      status === 'CANCELLED'
        ? 'CARD_CANCELLED'
        : status === 'EXPIRED'
          ? 'CARD_EXPIRED'
          : status === 'BLOCKED'
            ? 'CARD_BLOCKED'
            : today < card.start_date
              ? 'NOT_YET_VALID'
              : purchases >= card.max_purchase_quantity
                ? 'PURCHASE_QUANTITY_EXCEEDED'
                : spentMinor + purchase.amountMinor > ceiling
                  ? 'LIMIT_EXCEEDED'
                  : null;
    const row: VcnTransactionRow = {
      id: nextId(purchase.now.getTime()),
      company_id: card.company_id,
      vcn_id: card.id,
      status: reason ? 'DECLINED' : 'APPROVED',
      amount_minor: purchase.amountMinor,
      currency: card.currency,
      occurred_at: purchase.now.toISOString(),
      local_date: today,
      merchant_name: purchase.merchantName,
      merchant_category: purchase.merchantCategory,
      authorization_code: reason ? null : authorizationCode(),
      decline_reason: reason,
    };
    const { time_zone: _zone, ...issued } = card;
    const before = reason ? undefined : await shownCard(trx, issued, purchase.now);
    await trx.insertInto('vcn_transactions').values(row).execute();
    await recordVcnEvent(trx, reason ? 'vcn.declined' : 'vcn.authorized', issued, purchase.now, { before });
    return row;
  });
}

class CardStateError extends Error {}

const ALLOWED_FROM: Record<StoredVcnStatus, readonly StoredVcnStatus[]> = {
  BLOCKED: ['ACTIVE', 'BLOCKED'],
  ACTIVE: ['BLOCKED', 'ACTIVE'],
  CANCELLED: ['ACTIVE', 'BLOCKED', 'CANCELLED'],
};

/** Blocks, unblocks (ACTIVE) or cancels a card. Cancelling is final; an expired card can only be cancelled. */
export async function setCardStatus(
  db: Kysely<Database>,
  vcnId: string,
  target: StoredVcnStatus,
  now: Date,
): Promise<VcnRow> {
  return writeTransaction(db, async (trx) => {
    const card = await locate(trx, vcnId);
    const current = effectiveStatus(card.status, card.end_date, localDate(now, card.time_zone));
    const allowed = ALLOWED_FROM[target].includes(card.status) && (current !== 'EXPIRED' || target === 'CANCELLED');
    if (!allowed) throw new CardStateError(`Virtual card ${vcnId} is ${current} and cannot become ${target}`);
    await trx
      .updateTable('vcns')
      .set({ status: target, updated_at: now.toISOString() })
      .where('company_id', '=', card.company_id)
      .where('id', '=', vcnId)
      .execute();
    const { time_zone: _tz, ...row } = card;
    const changed = { ...row, status: target, updated_at: now.toISOString() };
    if (card.status !== target) {
      const type = target === 'CANCELLED' ? 'vcn.cancelled' : target === 'BLOCKED' ? 'vcn.blocked' : 'vcn.unblocked';
      await recordVcnEvent(trx, type, changed, now, { before: await shownCard(trx, row, now) });
    }
    return changed;
  });
}
