// Top-up and validity change of a CUSTOM card as reserve → call → confirm. The reservation is
// the card's change slot (change_id): one short transaction checks the rules and the
// compare-and-set and takes the slot; the issuer is called outside any transaction; a second
// short transaction applies the change, or frees the slot on failure (the card unchanged).
// While a change is in flight, any other change of the card is refused with 409.
import { PLATFORM, type Actor } from '../../../kit/handler.js';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordVcnEvent, shownCard } from './events.js';
import type { Database } from '../../../db/database.js';
import { VcnError, invalidVcnRequest } from '../../../kit/errors.js';
import { fromMinor, toMinor } from '../../../lib/money.js';
import type { CardIssuer } from '../../../kit/card-issuer.js';
import { checkNewEndDate } from '../rules.js';
import { effectiveStatus, isLive } from '../status.js';
import type { VcnRow } from '../tables.js';
import { getVcn, spentOn } from './cards.js';
import { busyRetryAfter, callIssuer, isAbandoned, providerUnavailable } from './provider.js';
import { unguarded, writeTransaction } from '../../../db/transaction.js';

interface UpdateRequest {
  companyId: string;
  vcnId: string;
  limit?: { value: number; expectedValue?: number };
  endDate?: string;
  today: string;
  now: Date;
  /** Goes on the `vcn.updated` event. */
  actor?: Actor;
}

interface Change {
  card: VcnRow;
  id: string;
  limitMinor: number;
  endDate: string;
}

const money = (minor: number) => fromMinor(minor).toFixed(2);

async function reserveChange(db: Kysely<Database>, request: UpdateRequest): Promise<Change> {
  const { companyId, vcnId, limit, endDate, today, now } = request;
  return writeTransaction(db, async (trx) => {
    const card = await getVcn(trx, companyId, vcnId);
    if (card.type !== 'CUSTOM') {
      throw new VcnError(
        409,
        'vcn-not-updatable',
        `Only CUSTOM virtual cards can be updated; this one is ${card.type}`,
      );
    }
    const status = effectiveStatus(card.status, card.end_date, today);
    if (!isLive(status)) throw new VcnError(409, 'vcn-not-active', `Virtual card ${vcnId} is ${status}`);
    if (endDate !== undefined)
      checkNewEndDate(endDate, { issuedOn: card.issued_on, startDate: card.start_date }, today);
    if (card.change_started_at !== null && !isAbandoned(card.change_started_at, now)) {
      throw new VcnError(
        409,
        'vcn-limit-conflict',
        `Another change to virtual card ${vcnId} is in progress; read the card's limit again and retry`,
        undefined,
        busyRetryAfter(),
      );
    }

    let limitMinor = card.limit_minor;
    if (limit) {
      if (limit.expectedValue !== undefined && toMinor(limit.expectedValue) !== card.limit_minor) {
        throw new VcnError(
          409,
          'vcn-limit-conflict',
          `The card's limit is ${money(card.limit_minor)}, not the expected ${money(toMinor(limit.expectedValue))}`,
        );
      }
      limitMinor = toMinor(limit.value);
      const { spentMinor } = await spentOn(trx, companyId, vcnId);
      if (limitMinor < spentMinor) {
        throw invalidVcnRequest(
          `limit.value ${money(limitMinor)} is below what the card has already spent (${money(spentMinor)})`,
        );
      }
    }
    const change: Change = { card, id: randomUUID(), limitMinor, endDate: endDate ?? card.end_date };
    await trx
      .updateTable('vcns')
      .set({
        change_id: change.id,
        change_started_at: now.toISOString(),
        change_limit_minor: change.limitMinor,
        change_end_date: change.endDate,
      })
      .where('company_id', '=', companyId)
      .where('id', '=', vcnId)
      .execute();
    return change;
  });
}

const NO_CHANGE = { change_id: null, change_started_at: null, change_limit_minor: null, change_end_date: null };

/** Applies the change (confirm) or just frees the slot (rollback); false when the slot is no longer this change's. */
async function settleChange(
  db: Kysely<Database>,
  change: Change,
  apply: boolean,
  now: Date,
  actor: Actor = PLATFORM,
): Promise<boolean> {
  const values = apply
    ? { ...NO_CHANGE, limit_minor: change.limitMinor, end_date: change.endDate, updated_at: now.toISOString() }
    : NO_CHANGE;
  return writeTransaction(db, async (trx) => {
    const done = await trx
      .updateTable('vcns')
      .set(values)
      .where('company_id', '=', change.card.company_id)
      .where('id', '=', change.card.id)
      .where('change_id', '=', change.id)
      .executeTakeFirst();
    if (done.numUpdatedRows !== 1n) return false;
    if (apply) {
      const before = await shownCard(trx, change.card, now);
      await recordVcnEvent(
        trx,
        'vcn.updated',
        {
          ...change.card,
          ...NO_CHANGE,
          limit_minor: change.limitMinor,
          end_date: change.endDate,
          updated_at: now.toISOString(),
        },
        now,
        { actor, before },
      );
    }
    return true;
  });
}

/**
 * Reserve → call → settle. The reservation of the change slot and its release on a failed call are
 * bookkeeping outside the request's guards (the slot holds the card itself); the applied change is
 * the write an Idempotency-Key answers for (server/idempotency), so a 503 from the issuer frees the key.
 */
export async function updateVcn(db: Kysely<Database>, issuer: CardIssuer, request: UpdateRequest): Promise<VcnRow> {
  const change = await unguarded(() => reserveChange(db, request));
  const { card } = change;
  try {
    await callIssuer(() =>
      issuer.updateCard({ providerRef: card.provider_ref, limitMinor: change.limitMinor, endDate: change.endDate }),
    );
  } catch (error) {
    await unguarded(() => settleChange(db, change, false, request.now));
    throw error;
  }
  // The slot is gone only if this request outlived the abandonment delay and another change took over.
  if (!(await settleChange(db, change, true, request.now, request.actor))) throw providerUnavailable();
  return {
    ...card,
    ...NO_CHANGE,
    limit_minor: change.limitMinor,
    end_date: change.endDate,
    updated_at: request.now.toISOString(),
  };
}
