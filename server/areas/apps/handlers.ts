// The apps area's operations: dynamic registration (RFC 7591), token revocation (RFC 7009) and
// introspection (RFC 7662) for apps and API clients alike, approval codes and the company's grants.
// The token endpoint's code and refresh grants are in token-grants.ts.
import { ipKeyGenerator } from 'express-rate-limit';
import { defineHandlers } from '../../kit/handler.js';
import { ApiError } from '../../kit/errors.js';
import { assertNotThrottled, recordFailure, revokeClientToken, revokeGrantAccessToken } from '../auth/public.js';
import { createApprovalCode } from './approval-codes.js';
import { callerOf } from './client-auth.js';
import { findRefreshToken, listGrants, revokeGrant } from './grants.js';
import { introspect } from './introspection.js';
import { registerApp } from './registration.js';

/** Registrations per address per minute. */
const REGISTRATIONS_PER_MINUTE = 20;

export const handlers = defineHandlers({
  registerOAuthClient: async ({ body }, { db, clock, req }) => {
    const attempt = { clientId: 'registration', address: `registrations from ${ipKeyGenerator(req.ip ?? '')}` };
    await assertNotThrottled(db, attempt, clock.now(), { perSource: 0, perClient: REGISTRATIONS_PER_MINUTE });
    const registered = await registerApp(db, clock, body);
    await recordFailure(db, attempt, clock.now());
    return { status: 201, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' }, body: registered };
  },

  revokeOAuthToken: async ({ body }, ctx) => {
    const caller = await callerOf(body, ctx);
    const { db, clock, req, requestId } = ctx;
    if (caller.kind === 'client') await revokeClientToken(db, body.token, caller.clientId);
    else {
      const refresh = body.token_type_hint === 'access_token' ? undefined : await findRefreshToken(db, body.token);
      if (refresh && refresh.app_id === caller.clientId) {
        const by = {
          actor: caller.clientId,
          ip: req.ip ?? null,
          requestId,
          reason: 'the app revoked its refresh token',
        };
        await revokeGrant(db, clock, refresh.grant_id, by);
      } else await revokeGrantAccessToken(db, clock, body.token, caller.clientId);
    }
    return { status: 200, headers: { 'Cache-Control': 'no-store' } };
  },

  introspectOAuthToken: async ({ body }, ctx) => {
    const caller = await callerOf(body, ctx);
    return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: await introspect(ctx, caller, body) };
  },

  createApprovalCode: async ({ body }, { db, clock, auth, req, requestId }) => {
    const asked = body?.scopes;
    const beyond = asked?.filter((s) => !auth.scopes.has(s)) ?? [];
    if (beyond.length > 0)
      throw new ApiError(400, `An approval code cannot allow scopes your token lacks: ${beyond.join(', ')}`, [
        `body.scopes: not held: ${beyond.join(', ')}`,
      ]);
    const made = await createApprovalCode(db, clock, {
      companyId: auth.companyId,
      scopes: asked ?? [...auth.scopes],
      createdBy: auth.clientId,
      ip: req.ip ?? null,
      requestId,
    });
    return { status: 201, headers: { 'Cache-Control': 'no-store' }, body: made };
  },

  listGrants: async (_input, { db, auth }) => ({ status: 200, body: { items: await listGrants(db, auth.companyId) } }),

  deleteGrant: async ({ params }, { db, clock, auth, req, requestId }) => {
    const by = { actor: auth.clientId, ip: req.ip ?? null, requestId, reason: 'revoked by the company' };
    if (!(await revokeGrant(db, clock, params.grantId, by, auth.companyId)))
      throw new ApiError(404, `No approved app ${params.grantId}`);
    return { status: 204 };
  },
});
