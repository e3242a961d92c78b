// Sandbox card events, as the card network would raise them: purchases (approved or declined
// by the card's rules) and status changes. The one implementation behind `finance vcn …` and
// `/sandbox/v1/vcns/…`. The network knows a card by its id; the HTTP helpers also name the caller's
// company, so a card of another company is not found. Days and event times are the company's clock.
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordVcnEvent, shownCard } from '../areas/vcn/store/events.js';
import { monotonicUlids } from '../lib/ulid.js';
import type { Database } from '../db/database.js';
import { localDate } from '../lib/time.js';
import { effectiveStatus } from '../areas/vcn/status.js';
import { presentAuthorization } from '../areas/vcn/present.js';
import type { StoredVcnStatus, VcnRow, VcnTransactionRow } from '../areas/vcn/tables.js';
import { issuedCard, spentOn, vcnNotFound } from '../areas/vcn/store/cards.js';
import { isAbandoned } from '../areas/vcn/store/provider.js';
import { writeTransaction } from '../db/transaction.js';

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

/** Which card: by id (the card network's view), within `companyId` when given. */
interface CardRef {
  vcnId: string;
  companyId?: string;
}

/** The card with its company's time zone and the company's current instant (wall time `wall` on its clock). */
async function locate(db: Kysely<Database>, ref: CardRef, wall: Date) {
  let query = db
    .selectFrom('vcns')
    .innerJoin('companies', 'companies.id', 'vcns.company_id')
    .selectAll('vcns')
    .select(['companies.time_zone', 'companies.clock_offset_ms'])
    .where('vcns.id', '=', ref.vcnId)
    .where('vcns.status', '!=', 'PENDING');
  if (ref.companyId !== undefined) query = query.where('vcns.company_id', '=', ref.companyId);
  const found = await query.executeTakeFirst();
  if (!found) throw vcnNotFound(ref.vcnId);
  const { time_zone: timeZone, clock_offset_ms: offset, ...row } = found;
  return { card: issuedCard(row), timeZone, now: new Date(wall.getTime() + Number(offset)) };
}

interface Purchase extends CardRef {
  amountMinor: number;
  /** The purchase's currency; when given, it must be the card's. */
  currency?: string;
  merchantName: string;
  merchantCategory: string;
  /** Wall time: the purchase happens at the company's instant for it. */
  wall: Date;
}

/** A purchase the card cannot even consider (not its currency, not a positive amount). */
export class PurchaseRefused extends Error {}

/** Authorizes a purchase in the card's currency: status, window, purchase count, then ceiling. */
export async function authorizePurchase(
  db: Kysely<Database>,
  purchase: Purchase,
): Promise<{ transaction: VcnTransactionRow; card: VcnRow; now: Date }> {
  if (!Number.isSafeInteger(purchase.amountMinor) || purchase.amountMinor <= 0)
    throw new PurchaseRefused('the amount must be positive');
  return writeTransaction(db, async (trx) => {
    const { card, timeZone, now } = await locate(trx, purchase, purchase.wall);
    if (purchase.currency !== undefined && purchase.currency !== card.currency)
      throw new PurchaseRefused(`the purchase is in ${purchase.currency}; the card's currency is ${card.currency}`);
    const today = localDate(now, timeZone);
    const { spentMinor, purchases } = await spentOn(trx, card.company_id, card.id);
    // While a top-up is in flight at the issuer, the stricter of the current and the new terms applies.
    const inFlight = card.change_started_at !== null && !isAbandoned(card.change_started_at, now);
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
      id: nextId(purchase.wall.getTime()),
      company_id: card.company_id,
      vcn_id: card.id,
      status: reason ? 'DECLINED' : 'APPROVED',
      amount_minor: purchase.amountMinor,
      currency: card.currency,
      occurred_at: now.toISOString(),
      local_date: today,
      merchant_name: purchase.merchantName,
      merchant_category: purchase.merchantCategory,
      authorization_code: reason ? null : authorizationCode(),
      decline_reason: reason,
    };
    const before = reason ? undefined : await shownCard(trx, card, now);
    await trx.insertInto('vcn_transactions').values(row).execute();
    await recordVcnEvent(trx, reason ? 'vcn.declined' : 'vcn.authorized', card, now, {
      before,
      authorization: presentAuthorization(row),
    });
    return { transaction: row, card, now };
  });
}

export class CardStateError extends Error {}

const ALLOWED_FROM: Record<StoredVcnStatus, readonly StoredVcnStatus[]> = {
  BLOCKED: ['ACTIVE', 'BLOCKED'],
  ACTIVE: ['BLOCKED', 'ACTIVE'],
  CANCELLED: ['ACTIVE', 'BLOCKED', 'CANCELLED'],
};

/** Blocks, unblocks (ACTIVE) or cancels a card. Cancelling is final; an expired card can only be cancelled. */
export async function setCardStatus(
  db: Kysely<Database>,
  ref: CardRef,
  target: StoredVcnStatus,
  wall: Date,
): Promise<{ card: VcnRow; now: Date }> {
  const { vcnId } = ref;
  return writeTransaction(db, async (trx) => {
    const { card, timeZone, now } = await locate(trx, ref, wall);
    const current = effectiveStatus(card.status, card.end_date, localDate(now, timeZone));
    const allowed = ALLOWED_FROM[target].includes(card.status) && (current !== 'EXPIRED' || target === 'CANCELLED');
    if (!allowed) throw new CardStateError(`Virtual card ${vcnId} is ${current} and cannot become ${target}`);
    await trx
      .updateTable('vcns')
      .set({ status: target, updated_at: now.toISOString() })
      .where('company_id', '=', card.company_id)
      .where('id', '=', vcnId)
      .execute();
    const changed = { ...card, status: target, updated_at: now.toISOString() };
    if (card.status !== target) {
      const type = target === 'CANCELLED' ? 'vcn.cancelled' : target === 'BLOCKED' ? 'vcn.blocked' : 'vcn.unblocked';
      await recordVcnEvent(trx, type, changed, now, { before: await shownCard(trx, card, now) });
    }
    return { card: changed, now };
  });
}
