// Virtual cards: read the validated request, apply the rules, call the store, shape the reply.
import { invalidVcnRequest } from '../../kit/errors.js';
import { paging } from '../../kit/paging.js';
import { defineHandlers, type HandlerContext } from '../../kit/handler.js';
import { localDate } from '../../lib/time.js';
import { cardData, presentDetails, presentSummary, presentTransaction, presentVcn } from './present.js';
import { planIssue } from './rules.js';
import { getVcn, spentOn } from './store/cards.js';
import { listCards, spendingOf } from './store/read.js';
import { issueVcn } from './store/issue.js';
import { assertIssuerConfigured } from './store/provider.js';
import { auditing } from '../audit/public.js';
import { recordReveal } from './store/reveal.js';
import { listTransactions } from './store/transactions.js';
import { updateVcn } from './store/update.js';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** Now on the company's clock, and the company's current day. */
const clockOf = (ctx: HandlerContext) => {
  const now = ctx.auth.companyClock.now();
  return { now, today: localDate(now, ctx.auth.timeZone) };
};

export const handlers = defineHandlers({
  listVcns: async ({ query }, ctx) => {
    const { today } = clockOf(ctx);
    const { companyId } = ctx.auth;
    const page = paging('listVcns', ctx, query, { status: query.status, type: query.type }, ['string']);
    const rows = await listCards(ctx.db, companyId, {
      status: query.status,
      type: query.type,
      today,
      limit: page.limit,
      beforeId: page.after?.[0],
    });
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.id]);
    const spending = await spendingOf(
      ctx.db,
      companyId,
      items.map((row) => row.id),
    );
    return {
      status: 200,
      body: {
        items: items.map((row) => presentDetails(row, spending.get(row.id) ?? { spentMinor: 0, purchases: 0 }, today)),
        ...(nextPageStartKey ? { nextPageStartKey } : {}),
      },
    };
  },

  getVcn: async ({ params }, ctx) => {
    const { today } = clockOf(ctx);
    const row = await getVcn(ctx.db, ctx.auth.companyId, params.vcnId);
    return { status: 200, body: presentDetails(row, await spentOn(ctx.db, ctx.auth.companyId, row.id), today) };
  },

  createVcn: async ({ body }, ctx) => {
    assertIssuerConfigured(ctx.issuer);
    const { now, today } = clockOf(ctx);
    const plan = planIssue(body, today);
    const { row, pan } = await issueVcn(ctx.db, ctx.issuer, {
      companyId: ctx.auth.companyId,
      clientId: ctx.auth.clientId,
      plan,
      today,
      now,
      panKey: ctx.config.secrets.panKey,
      actor: ctx.actor,
    });
    return {
      status: 201,
      body: presentVcn(row, cardData(row, ctx.config.secrets, pan), today),
      headers: { Location: `${ctx.config.baseUrl}/credit-cards/v1/vcns/${row.id}`, ...NO_STORE },
    };
  },

  updateVcn: async ({ params, body }, ctx) => {
    const { now, today } = clockOf(ctx);
    const row = await updateVcn(ctx.db, ctx.issuer, {
      companyId: ctx.auth.companyId,
      vcnId: params.vcnId,
      limit: body.limit,
      endDate: body.endDate,
      today,
      now,
      actor: ctx.actor,
    });
    return { status: 200, body: presentSummary(row, today) };
  },

  revealVcn: async ({ params }, ctx) => {
    const row = await recordReveal(ctx.db, {
      companyId: ctx.auth.companyId,
      vcnId: params.vcnId,
      clientId: ctx.auth.clientId,
      requestId: ctx.requestId,
      now: ctx.clock.now(),
      audit: auditing(ctx, 'vcn.revealed'),
    });
    return { status: 200, body: cardData(row, ctx.config.secrets), headers: NO_STORE };
  },

  redirectVcnCard: async ({ params }, ctx) => {
    const row = await getVcn(ctx.db, ctx.auth.companyId, params.vcnId);
    return { status: 308, headers: { Location: `/credit-cards/v1/vcns/${row.id}/reveal` } };
  },

  listVcnTransactions: async ({ params, query }, ctx) => {
    const { startDate, endDate } = query;
    if (startDate && endDate && endDate < startDate)
      throw invalidVcnRequest(`endDate ${endDate} is before startDate ${startDate}`);
    await getVcn(ctx.db, ctx.auth.companyId, params.vcnId);
    const statuses = query.status ? [...query.status].sort() : undefined;
    const page = paging(
      'listVcnTransactions',
      ctx,
      query,
      { vcnId: params.vcnId, startDate, endDate, status: statuses },
      ['string', 'string'],
    );
    const rows = await listTransactions(ctx.db, {
      companyId: ctx.auth.companyId,
      vcnId: params.vcnId,
      startDate,
      endDate,
      statuses,
      after: page.after,
      limit: page.limit + 1,
    });
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.occurred_at, last.id]);
    return {
      status: 200,
      body: { transactions: items.map(presentTransaction), ...(nextPageStartKey ? { nextPageStartKey } : {}) },
    };
  },
});
