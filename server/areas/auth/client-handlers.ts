// The company's API clients through the API (`clients:manage`): create, list, get, rotate, revoke.
// A caller never gives or takes over more than it holds: new clients' scopes are among the calling
// token's, and a client whose scopes go beyond them can be neither rotated nor revoked with it.
import { defineHandlers, type HandlerContext } from '../../kit/handler.js';
import { badRequest, conflict, forbidden, notFound } from '../../kit/errors.js';
import { paging } from '../../kit/paging.js';
import { requestActor } from '../audit/public.js';
import { createClient, revokeClient, rotateClientSecret } from './store.js';
import { findCompanyClient, listCompanyClients, presentClient } from './clients.js';
import { canonicalBlock } from './ip-allowlist.js';

const clientNotFound = () => notFound('API client not found');

/** Who acts, for the audit entry and `created_by`. */
const changedBy = (ctx: HandlerContext) => {
  const { actor, ip, requestId } = requestActor(ctx);
  return { actor, ip, requestId };
};

/** The scopes of `wanted` the calling token does not hold. */
const beyondCaller = (ctx: HandlerContext, wanted: readonly string[]) => wanted.filter((s) => !ctx.auth.scopes.has(s));

function canonicalBlocks(list: readonly string[]): string[] {
  const problems = list.flatMap((text, i) =>
    canonicalBlock(text)
      ? []
      : [{ field: `body.allowedIps[${i}]`, message: `not an IP address or CIDR block: ${text}` }],
  );
  if (problems.length > 0)
    throw badRequest('allowedIps holds entries that are not IP addresses or CIDR blocks', problems, {
      reason: 'invalid_value',
      param: 'allowedIps',
    });
  return [...new Set(list.map((text) => canonicalBlock(text)!))];
}

/** The client of the company that the caller may change, or the 404/403 that says why not. */
async function changeable(ctx: HandlerContext, clientId: string) {
  const row = await findCompanyClient(ctx.db, ctx.auth.companyId, clientId);
  if (!row) throw clientNotFound();
  const beyond = beyondCaller(ctx, row.scopes.split(' ').filter(Boolean));
  if (beyond.length > 0)
    throw forbidden(
      `This client holds scopes the calling token does not (${beyond.join(' ')}): change it with a token that holds them`,
    );
  return row;
}

export const handlers = defineHandlers({
  listApiClients: async ({ query }, ctx) => {
    const page = paging('listApiClients', ctx, query, {}, ['string', 'string']);
    const rows = await listCompanyClients(ctx.db, ctx.auth.companyId, page.limit, page.after);
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.created_at, last.id]);
    const now = ctx.clock.now();
    return {
      status: 200,
      body: { items: items.map((row) => presentClient(row, now)), ...(nextPageStartKey ? { nextPageStartKey } : {}) },
    };
  },

  getApiClient: async ({ params }, ctx) => {
    const row = await findCompanyClient(ctx.db, ctx.auth.companyId, params.clientId);
    if (!row) throw clientNotFound();
    return { status: 200, body: presentClient(row, ctx.clock.now()) };
  },

  createApiClient: async ({ body }, ctx) => {
    const beyond = beyondCaller(ctx, body.scopes);
    if (beyond.length > 0)
      throw forbidden(`A client cannot be given scopes the calling token does not hold: ${beyond.join(' ')}`);
    const allowedIps = body.allowedIps ? canonicalBlocks(body.allowedIps) : null;
    if (allowedIps && allowedIps.length === 0) {
      const message = 'allowedIps must name at least one block, or be null for any address';
      throw badRequest(message, [{ field: 'body.allowedIps', message }], {
        reason: 'invalid_value',
        param: 'allowedIps',
      });
    }
    const expiresAt = body.expiresAt ? new Date(body.expiresAt).toISOString() : null;
    if (expiresAt && Date.parse(expiresAt) <= ctx.clock.now().getTime()) {
      const message = 'expiresAt must be in the future';
      throw badRequest(message, [{ field: 'body.expiresAt', message }], {
        reason: 'invalid_value',
        param: 'expiresAt',
      });
    }
    const created = await createClient(
      ctx.db,
      ctx.clock,
      { companyId: ctx.auth.companyId, scopes: body.scopes, name: body.name, allowedIps, expiresAt },
      changedBy(ctx),
    );
    const row = await findCompanyClient(ctx.db, ctx.auth.companyId, created.clientId);
    if (!row) throw clientNotFound();
    return {
      status: 201,
      headers: {
        Location: `${ctx.config.baseUrl}/clients/v1/clients/${created.clientId}`,
        'Cache-Control': 'no-store',
      },
      body: { ...presentClient(row, ctx.clock.now()), clientSecret: created.clientSecret },
    };
  },

  rotateApiClientSecret: async ({ params, body }, ctx) => {
    const row = await changeable(ctx, params.clientId);
    if (row.revoked_at) throw conflict('The API client is revoked; create a new one', ['status: revoked']);
    const { clientSecret } = await rotateClientSecret(ctx.db, params.clientId, {
      clock: ctx.clock,
      graceSeconds: body?.graceSeconds ?? 0,
      by: changedBy(ctx),
    });
    const after = await findCompanyClient(ctx.db, ctx.auth.companyId, params.clientId);
    if (!after) throw clientNotFound();
    return {
      status: 200,
      headers: { 'Cache-Control': 'no-store' },
      body: { ...presentClient(after, ctx.clock.now()), clientSecret },
    };
  },

  deleteApiClient: async ({ params }, ctx) => {
    await changeable(ctx, params.clientId);
    await revokeClient(ctx.db, ctx.clock, params.clientId, changedBy(ctx));
    return { status: 204 };
  },
});
