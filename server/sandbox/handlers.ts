// The sandbox's test helpers and test clock (`/sandbox/v1/…`): what the outside world does — a bank
// or card transaction arriving, a purchase with a virtual card, a card blocked, an invite accepted —
// and moving the company's clock. Absent in production (server/contract/sandbox.ts).
import { conflict, invalidVcnRequest, notFound, VcnError } from '../kit/errors.js';
import { defineHandlers, type HandlerContext } from '../kit/handler.js';
import { localDate } from '../lib/time.js';
import { toMinor } from '../lib/money.js';
import { presentDetails, presentTransaction } from '../areas/vcn/present.js';
import { spentOn } from '../areas/vcn/store/cards.js';
import type { StoredVcnStatus, VcnRow } from '../areas/vcn/tables.js';
import { acceptInvite, InviteNotAcceptable } from '../areas/users/invites-service.js';
import { findInvite } from '../areas/users/store/invites.js';
import { presentUser } from '../areas/users/present.js';
import { authorizePurchase, CardStateError, PurchaseRefused, setCardStatus } from './cards.js';
import { advanceClock, resetClock } from './clock.js';
import { createBanking, createCreditCard, linesOf, type Arrival } from './transactions.js';
import { completeBanking, completeCreditCard, lookups } from './defaults.js';
import { removeBankingTransaction, removeCreditCardTransaction } from '../areas/statements/store/remove.js';

const arrival = (ctx: HandlerContext): Arrival => ({
  companyId: ctx.auth.companyId,
  timeZone: ctx.auth.timeZone,
  now: ctx.auth.companyClock.now(),
  actor: ctx.actor,
});

/** The card as `getVcn` shows it, on the company's day at `now`. */
const shown = async (ctx: HandlerContext, card: VcnRow, now: Date) =>
  presentDetails(card, await spentOn(ctx.db, card.company_id, card.id), localDate(now, ctx.auth.timeZone));

async function changeStatus(ctx: HandlerContext, vcnId: string, target: StoredVcnStatus) {
  try {
    const { card, now } = await setCardStatus(
      ctx.db,
      { vcnId, companyId: ctx.auth.companyId },
      target,
      ctx.clock.now(),
    );
    return { status: 200 as const, body: await shown(ctx, card, now) };
  } catch (err) {
    if (err instanceof CardStateError) throw new VcnError(409, 'vcn-not-active', err.message);
    throw err;
  }
}

export const handlers = defineHandlers({
  createSandboxBankingTransaction: async ({ body }, ctx) => {
    const batch = 'transactions' in body;
    const a = arrival(ctx);
    const read = lookups(ctx.db, a.companyId);
    const lines = await Promise.all(linesOf(body).map((t) => completeBanking(read, a.now, t)));
    const created = await createBanking(ctx.db, a, lines, batch);
    return { status: 201, body: batch ? { transactions: created } : created[0]! };
  },

  createSandboxCreditCardTransaction: async ({ body }, ctx) => {
    const batch = 'transactions' in body;
    const a = arrival(ctx);
    const read = lookups(ctx.db, a.companyId);
    const lines = await Promise.all(linesOf(body).map((t) => completeCreditCard(read, a.now, t)));
    const created = await createCreditCard(ctx.db, a, lines, batch);
    return { status: 201, body: batch ? { transactions: created } : created[0]! };
  },

  deleteSandboxBankingTransaction: async ({ params }, ctx) => {
    await removeBankingTransaction(ctx.db, params.transactionId, arrival(ctx));
    return { status: 204 as const };
  },

  deleteSandboxCreditCardTransaction: async ({ params }, ctx) => {
    await removeCreditCardTransaction(ctx.db, params.transactionId, arrival(ctx));
    return { status: 204 as const };
  },

  authorizeSandboxVcnPurchase: async ({ params, body }, ctx) => {
    const amountMinor = minorOrRefused(body.amount.value);
    try {
      const { transaction, card, now } = await authorizePurchase(ctx.db, {
        vcnId: params.vcnId,
        companyId: ctx.auth.companyId,
        amountMinor,
        currency: body.amount.currency,
        merchantName: body.merchant.name,
        merchantCategory: body.merchant.mcc,
        wall: ctx.clock.now(),
      });
      const answer = presentTransaction(transaction);
      return {
        status: 201,
        body: {
          approved: transaction.status === 'APPROVED',
          ...(answer.declineReason ? { declineReason: answer.declineReason } : {}),
          transaction: answer,
          vcn: await shown(ctx, card, now),
        },
      };
    } catch (err) {
      if (err instanceof PurchaseRefused) throw invalidVcnRequest(err.message);
      throw err;
    }
  },

  blockSandboxVcn: ({ params }, ctx) => changeStatus(ctx, params.vcnId, 'BLOCKED'),
  unblockSandboxVcn: ({ params }, ctx) => changeStatus(ctx, params.vcnId, 'ACTIVE'),
  cancelSandboxVcn: ({ params }, ctx) => changeStatus(ctx, params.vcnId, 'CANCELLED'),

  acceptSandboxInvite: async ({ params, body }, ctx) => {
    const invite = await findInvite(ctx.db, ctx.auth.companyId, params.inviteId.toLowerCase());
    if (!invite) throw notFound('No such invite');
    try {
      const user = await acceptInvite(ctx.db, ctx.auth.companyClock, ctx.auth.companyId, {
        email: invite.email,
        inviteId: invite.id,
        actor: ctx.actor,
        ...(body?.name !== undefined ? { name: body.name } : {}),
      });
      return { status: 200, body: presentUser(user) };
    } catch (err) {
      if (err instanceof InviteNotAcceptable) throw conflict(err.message);
      throw err;
    }
  },

  getSandboxClock: async (_input, ctx) => ({
    status: 200,
    body: { now: ctx.auth.companyClock.now().toISOString() },
  }),

  advanceSandboxClock: async ({ body }, ctx) => {
    const now = await advanceClock(ctx.db, ctx.auth.companyId, ctx.clock.now(), new Date(body.to));
    return { status: 200, body: { now: now.toISOString() } };
  },

  resetSandboxClock: async (_input, ctx) => {
    const now = await resetClock(ctx.db, ctx.auth.companyId, ctx.auth.timeZone, ctx.clock.now());
    return { status: 200, body: { now: now.toISOString() } };
  },
});

/** The purchase amount in minor units; 400 when it has more than 2 decimals or is beyond any card's reach. */
function minorOrRefused(value: number): number {
  try {
    return toMinor(value);
  } catch {
    throw invalidVcnRequest('amount.value must be an amount with at most 2 decimal places, below 90 trillion');
  }
}
