// Issuing a card as reserve → call → confirm: the issuer is called outside any transaction, so
// a slow issuer never holds the database. The reservation holds the idempotency key meanwhile,
// so two requests can never both get a card for one key; a failure leaves nothing behind. The
// reservation and its drop are that bookkeeping, outside the request's guards: the confirmation is the
// write an Idempotency-Key answers for (server/idempotency), so a 503 from the issuer frees the key.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { encryptPan } from '../crypto.js';
import type { CardIssuer } from '../../../kit/card-issuer.js';
import type { VcnRow } from '../tables.js';
import { callIssuer } from './provider.js';
import { confirmReservation, dropReservation, reserveKey, type IssueRequest } from './reservation.js';
import { unguarded, writeTransaction } from '../../../db/transaction.js';

interface IssuedVcn {
  row: VcnRow;
  /** The clear PAN, for the response only. */
  pan: string;
}

export async function issueVcn(db: Kysely<Database>, issuer: CardIssuer, request: IssueRequest): Promise<IssuedVcn> {
  const { plan, now } = request;
  const reservation = await unguarded(() => reserveKey(db, request));
  let card: Awaited<ReturnType<CardIssuer['issueCard']>>;
  try {
    card = await callIssuer(() =>
      issuer.issueCard({
        vcnId: reservation.id,
        type: plan.type,
        fundingCardId: reservation.funding_card_id,
        currency: plan.currency,
        limitMinor: plan.limitMinor,
        startDate: plan.startDate,
        endDate: plan.endDate,
        maxPurchaseQuantity: plan.maxPurchaseQuantity,
      }),
    );
  } catch (error) {
    await unguarded(() => writeTransaction(db, (trx) => dropReservation(trx, request.companyId, reservation.id, now)));
    throw error;
  }
  const data = {
    providerRef: card.providerRef,
    panCiphertext: encryptPan(request.panKey, reservation.id, card.pan),
    panLast4: card.pan.slice(-4),
  };
  const row = await confirmReservation(db, reservation, data, now, request.actor);
  return { row, pan: card.pan };
}
