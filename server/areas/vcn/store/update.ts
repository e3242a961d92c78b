// Top-up and validity change of a CUSTOM card, as one compare-and-set transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { VcnError, invalidVcnRequest } from '../../../http/errors.js';
import { fromMinor, toMinor } from '../../../lib/money.js';
import type { CardIssuer } from '../issuer.js';
import { checkNewEndDate } from '../rules.js';
import { effectiveStatus, isLive } from '../status.js';
import type { VcnRow } from '../tables.js';
import { getVcn, spentOn } from './cards.js';
import { callIssuer } from './provider.js';

export interface UpdateRequest {
  companyId: string;
  vcnId: string;
  limit?: { value: number; expectedValue?: number };
  endDate?: string;
  today: string;
  now: Date;
}

const money = (minor: number) => fromMinor(minor).toFixed(2);

export async function updateVcn(db: Kysely<Database>, issuer: CardIssuer, request: UpdateRequest): Promise<VcnRow> {
  const { companyId, vcnId, limit, endDate, today } = request;
  return db.transaction().execute(async (trx) => {
    const card = await getVcn(trx, companyId, vcnId);
    if (card.type !== 'CUSTOM') {
      throw new VcnError(409, 'vcn-not-updatable', `Only CUSTOM virtual cards can be updated; this one is ${card.type}`);
    }
    const status = effectiveStatus(card.status, card.end_date, today);
    if (!isLive(status)) throw new VcnError(409, 'vcn-not-active', `Virtual card ${vcnId} is ${status}`);
    if (endDate !== undefined) checkNewEndDate(endDate, { issuedOn: card.issued_on, startDate: card.start_date }, today);

    let limitMinor = card.limit_minor;
    if (limit) {
      if (limit.expectedValue !== undefined && toMinor(limit.expectedValue) !== card.limit_minor) {
        throw new VcnError(409, 'vcn-limit-conflict', `The card's limit is ${money(card.limit_minor)}, not the expected ${money(toMinor(limit.expectedValue))}`);
      }
      limitMinor = toMinor(limit.value);
      const { spentMinor } = await spentOn(trx, companyId, vcnId);
      if (limitMinor < spentMinor) {
        throw invalidVcnRequest(`limit.value ${money(limitMinor)} is below what the card has already spent (${money(spentMinor)})`);
      }
    }
    const newEndDate = endDate ?? card.end_date;
    await callIssuer(() => issuer.updateCard({ providerRef: card.provider_ref, limitMinor, endDate: newEndDate }));
    const updatedAt = request.now.toISOString();
    await trx
      .updateTable('vcns')
      .set({ limit_minor: limitMinor, end_date: newEndDate, updated_at: updatedAt })
      .where('company_id', '=', companyId)
      .where('id', '=', vcnId)
      .execute();
    return { ...card, limit_minor: limitMinor, end_date: newEndDate, updated_at: updatedAt };
  });
}
