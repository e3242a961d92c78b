// Issuing a card: funding, idempotency key, the issuer and the insert in one transaction, so a
// failure leaves nothing behind and two requests can never both hold one key.
import type { Kysely } from 'kysely';
import { ulid } from 'ulid';
import type { Database } from '../../../db/schema.js';
import { VcnError } from '../../../http/errors.js';
import { encryptPan } from '../crypto.js';
import type { CardIssuer } from '../issuer.js';
import type { IssuePlan } from '../rules.js';
import { effectiveStatus, isLive } from '../status.js';
import type { VcnRow } from '../tables.js';
import { findActiveFundingCard } from './funding.js';
import { callIssuer } from './provider.js';

export interface IssueRequest {
  companyId: string;
  clientId: string;
  plan: IssuePlan;
  /** The issuance day in the company's time zone. */
  today: string;
  now: Date;
  panKey: Buffer;
}

export interface IssuedVcn {
  row: VcnRow;
  /** The clear PAN, for the response only. */
  pan: string;
}

export async function issueVcn(db: Kysely<Database>, issuer: CardIssuer, request: IssueRequest): Promise<IssuedVcn> {
  const { companyId, plan, today, now } = request;
  return db.transaction().execute(async (trx) => {
    const funding = await findActiveFundingCard(trx, companyId, plan.type, plan.currency);
    if (!funding) {
      throw new VcnError(400, 'active-funding-card-not-found', `No active funding card for ${plan.type} cards in ${plan.currency}`);
    }

    const holder = await trx
      .selectFrom('vcns')
      .select(['id', 'status', 'end_date'])
      .where('company_id', '=', companyId)
      .where('type', '=', plan.type)
      .where('idempotency_key', '=', plan.key)
      .where('holds_key', '=', 1)
      .executeTakeFirst();
    if (holder && isLive(effectiveStatus(holder.status, holder.end_date, today))) {
      throw new VcnError(409, 'vcn-already-exists', `Live virtual card ${holder.id} already holds ${plan.keyField} ${plan.key}`);
    }
    if (holder) {
      await trx.updateTable('vcns').set({ holds_key: 0, updated_at: now.toISOString() }).where('company_id', '=', companyId).where('id', '=', holder.id).execute();
    }

    const id = ulid(now.getTime());
    const card = await callIssuer(() =>
      issuer.issueCard({
        vcnId: id,
        type: plan.type,
        fundingCardId: funding.id,
        currency: plan.currency,
        limitMinor: plan.limitMinor,
        startDate: plan.startDate,
        endDate: plan.endDate,
        maxPurchaseQuantity: plan.maxPurchaseQuantity,
      }),
    );
    const row: VcnRow = {
      id,
      company_id: companyId,
      client_id: request.clientId,
      type: plan.type,
      status: 'ACTIVE',
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
      provider_ref: card.providerRef,
      pan_ciphertext: encryptPan(request.panKey, id, card.pan),
      pan_last4: card.pan.slice(-4),
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    await trx.insertInto('vcns').values(row).execute();
    return { row, pan: card.pan };
  });
}
