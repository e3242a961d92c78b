// GET /credit-cards/v1/cards, POST /credit-cards/v1/{id}/block and /unblock.
import { defineHandlers, type HandlerContext } from '../../../kit/handler.js';
import { paging } from '../../../kit/paging.js';
import { conflict, notFound } from '../../../kit/errors.js';
import { userIdsByEmail } from '../../users/public.js';
import { presentCard, presentCards } from './present.js';
import { CardStateConflict, changeCardStatus, pageCards } from './store.js';

const noSuchCard = () => notFound('No such card');

async function setStatus(ctx: HandlerContext, id: string, to: 'BLOCKED' | 'ACTIVATED', reason: string | null) {
  try {
    const card = await changeCardStatus(
      ctx.db,
      {
        companyId: ctx.auth.companyId,
        id: id.toLowerCase(),
        to,
        reason,
        clientId: ctx.auth.clientId,
        requestId: ctx.requestId,
        now: ctx.auth.companyClock.now(),
      },
      async (trx, changed) => (await presentCard(trx, changed)) as unknown as Record<string, unknown>,
    );
    if (!card) throw noSuchCard();
    return { status: 200 as const, body: await presentCard(ctx.db, card) };
  } catch (err) {
    if (err instanceof CardStateConflict) {
      const verb = to === 'BLOCKED' ? 'blocked' : 'unblocked';
      throw conflict(`The card is ${err.status} and cannot be ${verb}`, [`status: ${err.status}`]);
    }
    throw err;
  }
}

export const handlers = defineHandlers({
  listCards: async ({ query }, ctx) => {
    const filters = {
      status: query.status,
      type: query.type,
      email: query.email?.trim().toLowerCase(),
      productName: query.productName?.trim().toLowerCase(),
      last4: query.last4,
    };
    const page = paging('listCards', ctx, query, filters, ['string', 'string']);
    const { email, ...rest } = filters;
    const rows = await pageCards(ctx.db, ctx.auth.companyId, {
      ...rest,
      ...(email !== undefined ? { responsibleIds: await userIdsByEmail(ctx.db, ctx.auth.companyId, email) } : {}),
      after: page.after,
      limit: page.limit,
    });
    const { items, nextPageStartKey } = page.page(rows, (last) => [new Date(last.created_at).toISOString(), last.id]);
    return {
      status: 200,
      body: {
        items: await presentCards(ctx.db, ctx.auth.companyId, items),
        ...(nextPageStartKey ? { nextPageStartKey } : {}),
        limit: page.limit,
      },
    };
  },

  blockCard: ({ params, body }, ctx) => setStatus(ctx, params.id, 'BLOCKED', body?.reason ?? null),
  unblockCard: ({ params }, ctx) => setStatus(ctx, params.id, 'ACTIVATED', null),
});
