// Virtual cards: read the validated request, apply the rules, call the store, shape the reply.
import { VcnError, invalidVcnRequest } from '../../http/errors.js';
import { decodeCursor, encodeCursor } from '../../http/cursor.js';
import { defineHandlers, type HandlerContext } from '../../http/handler.js';
import { dayIn } from './dates.js';
import { cardData, presentDetails, presentSummary, presentTransaction, presentVcn } from './present.js';
import { planIssue } from './rules.js';
import { getVcn, spentOn } from './store/cards.js';
import { listCards, spendingOf } from './store/read.js';
import { issueVcn } from './store/issue.js';
import { recordReveal } from './store/reveal.js';
import { listTransactions } from './store/transactions.js';
import { updateVcn } from './store/update.js';

const NO_STORE = { 'Cache-Control': 'no-store' };
const DEFAULT_PAGE = 50;

/** Now, and the company's current day. */
const clockOf = (ctx: HandlerContext) => {
  const now = ctx.clock.now();
  return { now, today: dayIn(ctx.auth.timeZone, now) };
};

/** A cursor that fails verification is a schema-level failure of the query. */
function afterKey(ctx: HandlerContext, scope: unknown, token: string | undefined): [string, string] | undefined {
  if (token === undefined) return undefined;
  try {
    const [occurredAt, id] = decodeCursor(ctx.config.secrets.cursor, scope, token);
    if (typeof occurredAt !== 'string' || typeof id !== 'string') throw new Error('bad cursor key');
    return [occurredAt, id];
  } catch {
    const message = 'nextPageStartKey is invalid, or was issued for other filters';
    throw new VcnError(400, 'bad-request-exception', message, [{ field: 'query.nextPageStartKey', message }]);
  }
}

export const handlers = defineHandlers({
  listVcns: async ({ query }, ctx) => {
    const { today } = clockOf(ctx);
    const { companyId } = ctx.auth;
    const scope = { op: 'listVcns', companyId, status: query.status, type: query.type };
    let beforeId: string | undefined;
    if (query.nextPageStartKey !== undefined) {
      try {
        const [id, extra] = decodeCursor(ctx.config.secrets.cursor, scope, query.nextPageStartKey);
        if (typeof id !== 'string' || extra !== undefined) throw new Error('bad cursor key');
        beforeId = id;
      } catch {
        const message = 'nextPageStartKey is invalid, or was issued for other filters';
        throw new VcnError(400, 'bad-request-exception', message, [{ field: 'query.nextPageStartKey', message }]);
      }
    }
    const limit = query.limit ?? DEFAULT_PAGE;
    const rows = await listCards(ctx.db, companyId, { status: query.status, type: query.type, today, limit, beforeId });
    const page = rows.slice(0, limit);
    const spending = await spendingOf(ctx.db, companyId, page.map((row) => row.id));
    const last = page[page.length - 1];
    return {
      status: 200,
      body: {
        items: page.map((row) => presentDetails(row, spending.get(row.id) ?? { spentMinor: 0, purchases: 0 }, today)),
        ...(rows.length > limit && last ? { nextPageStartKey: encodeCursor(ctx.config.secrets.cursor, scope, [last.id]) } : {}),
      },
    };
  },

  getVcn: async ({ params }, ctx) => {
    const { today } = clockOf(ctx);
    const row = await getVcn(ctx.db, ctx.auth.companyId, params.vcnId);
    return { status: 200, body: presentDetails(row, await spentOn(ctx.db, ctx.auth.companyId, row.id), today) };
  },

  createVcn: async ({ body }, ctx) => {
    const { now, today } = clockOf(ctx);
    const plan = planIssue(body, today);
    const { row, pan } = await issueVcn(ctx.db, ctx.issuer, {
      companyId: ctx.auth.companyId,
      clientId: ctx.auth.clientId,
      plan,
      today,
      now,
      panKey: ctx.config.secrets.panKey,
      requestId: ctx.requestId,
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
      requestId: ctx.requestId,
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
    });
    return { status: 200, body: cardData(row, ctx.config.secrets), headers: NO_STORE };
  },

  redirectVcnCard: async ({ params }, ctx) => {
    const row = await getVcn(ctx.db, ctx.auth.companyId, params.vcnId);
    return { status: 308, headers: { Location: `/credit-cards/v1/vcns/${row.id}/reveal` } };
  },

  listVcnTransactions: async ({ params, query }, ctx) => {
    const { startDate, endDate } = query;
    if (startDate && endDate && endDate < startDate) throw invalidVcnRequest(`endDate ${endDate} is before startDate ${startDate}`);
    await getVcn(ctx.db, ctx.auth.companyId, params.vcnId);
    const statuses = query.status ? [...query.status].sort() : undefined;
    const scope = { op: 'listVcnTransactions', vcnId: params.vcnId, startDate, endDate, status: statuses };
    const limit = query.limit ?? DEFAULT_PAGE;
    const rows = await listTransactions(ctx.db, {
      companyId: ctx.auth.companyId,
      vcnId: params.vcnId,
      startDate,
      endDate,
      statuses,
      after: afterKey(ctx, scope, query.nextPageStartKey),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const more = rows.length > limit && last !== undefined;
    return {
      status: 200,
      body: {
        transactions: page.map(presentTransaction),
        ...(more ? { nextPageStartKey: encodeCursor(ctx.config.secrets.cursor, scope, [last.occurred_at, last.id]) } : {}),
      },
    };
  },
});
