// The idempotency key's reservation: a PENDING row that holds the key (the partial unique index
// counts it) while the issuer is called, then becomes the card or is removed.
import { PLATFORM, type Actor } from '../../../kit/handler.js';
import { type Kysely, sql } from 'kysely';
import { recordVcnEvent } from './events.js';
import { ulid } from 'ulid';
import type { Database } from '../../../db/database.js';
import { VcnError } from '../../../kit/errors.js';
import { effectiveStatus, isLive } from '../status.js';
import type { VcnRow, VcnTable } from '../tables.js';
import { issuedCard } from './cards.js';
import { findActiveFundingCard } from './funding.js';
import type { IssuePlan } from '../rules.js';
import { busyRetryAfter, isAbandoned, providerUnavailable } from './provider.js';
import { writeTransaction } from '../../../db/transaction.js';

export interface IssueRequest {
  companyId: string;
  clientId: string;
  plan: IssuePlan;
  /** The issuance day in the company's time zone. */
  today: string;
  now: Date;
  panKey: Buffer;
  /** Goes on the `vcn.issued` event. */
  actor?: Actor;
}

type Holder = Pick<VcnTable, 'id' | 'status' | 'end_date' | 'created_at' | 'replaces_id'>;

async function findHolder(
  trx: Kysely<Database>,
  companyId: string,
  type: VcnTable['type'],
  key: string,
): Promise<Holder | undefined> {
  return trx
    .selectFrom('vcns')
    .select(['id', 'status', 'end_date', 'created_at', 'replaces_id'])
    .where('company_id', '=', companyId)
    .where('type', '=', type)
    .where('idempotency_key', '=', key)
    .where('holds_key', '=', sql.lit(1)) // literal as in the partial index: a bound value makes SQLite recompile at each run
    .executeTakeFirst();
}

/** Removes a reservation; the card it was replacing (if any) holds the key again. False when it was already gone. */
export async function dropReservation(
  trx: Kysely<Database>,
  companyId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  const gone = await trx
    .deleteFrom('vcns')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .returning('replaces_id')
    .executeTakeFirst();
  if (gone?.replaces_id) {
    await trx
      .updateTable('vcns')
      .set({ holds_key: 1, updated_at: now.toISOString() })
      .where('company_id', '=', companyId)
      .where('id', '=', gone.replaces_id)
      .execute();
  }
  return gone !== undefined;
}

/**
 * One short transaction: the funding card, the key rule (a live card → 409 naming it; a
 * reservation in progress → 409; an abandoned one is removed; an expired or cancelled holder
 * hands the key over), and the reservation row. Returns it with the funding card's id.
 */
export async function reserveKey(db: Kysely<Database>, request: IssueRequest): Promise<VcnTable> {
  const { companyId, plan, today, now } = request;
  return writeTransaction(db, async (trx) => {
    const funding = await findActiveFundingCard(trx, companyId, plan.type, plan.currency);
    if (!funding) {
      throw new VcnError(
        400,
        'active-funding-card-not-found',
        `No active funding card for ${plan.type} cards in ${plan.currency}`,
      );
    }

    let holder = await findHolder(trx, companyId, plan.type, plan.key);
    if (holder?.status === 'PENDING') {
      if (!isAbandoned(holder.created_at, now)) {
        throw new VcnError(
          409,
          'vcn-already-exists',
          `A virtual card for ${plan.keyField} ${plan.key} is being issued; retry shortly`,
          undefined,
          busyRetryAfter(),
        );
      }
      await dropReservation(trx, companyId, holder.id, now);
      holder = await findHolder(trx, companyId, plan.type, plan.key);
    }
    if (holder && holder.status !== 'PENDING' && isLive(effectiveStatus(holder.status, holder.end_date, today))) {
      throw new VcnError(
        409,
        'vcn-already-exists',
        `Live virtual card ${holder.id} already holds ${plan.keyField} ${plan.key}`,
      );
    }
    if (holder) {
      await trx
        .updateTable('vcns')
        .set({ holds_key: 0, updated_at: now.toISOString() })
        .where('company_id', '=', companyId)
        .where('id', '=', holder.id)
        .execute();
    }

    const at = now.toISOString();
    const row: VcnTable = {
      id: ulid(now.getTime()),
      company_id: companyId,
      client_id: request.clientId,
      type: plan.type,
      status: 'PENDING',
      idempotency_key: plan.key,
      holds_key: 1,
      currency: plan.currency,
      limit_minor: plan.limitMinor,
      rate_minor: plan.price?.rateMinor ?? null,
      taxes_minor: plan.price?.taxesMinor ?? null,
      fees_minor: plan.price?.feesMinor ?? null,
      issued_on: today,
      start_date: plan.startDate,
      end_date: plan.endDate,
      max_purchase_quantity: plan.maxPurchaseQuantity,
      booking: JSON.stringify(plan.booking),
      custom_fields: plan.customFields ? JSON.stringify(plan.customFields) : null,
      requestor: JSON.stringify(plan.requestor),
      funding_card_id: funding.id,
      provider_ref: null,
      pan_ciphertext: null,
      pan_last4: null,
      created_at: at,
      updated_at: at,
      change_id: null,
      change_started_at: null,
      change_limit_minor: null,
      change_end_date: null,
      replaces_id: holder?.id ?? null,
    };
    await trx.insertInto('vcns').values(row).execute();
    return row;
  });
}

interface CardData {
  providerRef: string;
  panCiphertext: string;
  panLast4: string;
}

/**
 * The reservation becomes an ACTIVE card. When it is gone (removed as abandoned by another
 * request because this one took far longer than the issuer timeout), the answer is 503.
 */
export async function confirmReservation(
  db: Kysely<Database>,
  reservation: VcnTable,
  card: CardData,
  now: Date,
  actor: Actor = PLATFORM,
): Promise<VcnRow> {
  const changes = {
    status: 'ACTIVE' as const,
    provider_ref: card.providerRef,
    pan_ciphertext: card.panCiphertext,
    pan_last4: card.panLast4,
    updated_at: now.toISOString(),
  };
  return writeTransaction(db, async (trx) => {
    const done = await trx
      .updateTable('vcns')
      .set(changes)
      .where('company_id', '=', reservation.company_id)
      .where('id', '=', reservation.id)
      .where('status', '=', 'PENDING')
      .executeTakeFirst();
    if (done.numUpdatedRows !== 1n) throw providerUnavailable();
    const issued = issuedCard({ ...reservation, ...changes });
    await recordVcnEvent(trx, 'vcn.issued', issued, now, { actor });
    return issued;
  });
}
