// POST /oauth/token for apps: `authorization_code` (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.6) and
// `refresh_token` (§6, rotated on every use, RFC 9700 §4.14.2). A code is single use, lives 60 s and is
// bound to its app, redirect URI and PKCE challenge; presenting a used code again revokes its grant
// (§4.1.2). Presenting a refresh token already exchanged revokes the grant (one of the two holders
// is not the app), unless it is a retry of that exchange within its grace (refresh-retry.ts). An app
// never gets a first-party scope, whatever its grant says. Errors are RFC 6749 §5.2's; each refusal
// of a code or refresh token that names a grant is audited in the grant's company (`token.refused`).
import { SYSTEM_ACTOR } from '../audit/public.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import { OAuthError } from '../../kit/errors.js';
import { companyNameAndZone, firstPartyOf, refuseToken } from '../auth/public.js';
import { addressOf, appOf, type OAuthCtx } from './client-auth.js';
import { exchangeForTokens, findCode, findRefreshToken, revokeGrant } from './grants.js';
import { mintingKeys, pairFor, pairGivenBefore } from './refresh-retry.js';
import { isThisResource } from './resource.js';

interface TokenForm {
  grant_type: string;
  scope?: string;
  client_id?: string;
  client_secret?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
  resource?: string;
}

type RefusalReason = Parameters<typeof refuseToken>[1];

/** What a request presented of a grant: its company keeps the audit entry of a refusal. */
interface OfGrant {
  grant_id: string;
  company_id: string;
}

const invalidGrant = (message: string) => new OAuthError(400, 'invalid_grant', message);
const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** RFC 7636 §4.6: BASE64URL(SHA256(verifier)) equals the challenge, compared in constant time. */
function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** Audits the refusal of `clientId`'s request in the company of the grant it presented, when it presented one. */
async function audit(ctx: OAuthCtx, clientId: string, grant: OfGrant | undefined, reason: RefusalReason, more = {}) {
  if (!grant) return;
  const refusal = { db: ctx.db, clock: ctx.clock, clientId, ip: addressOf(ctx.req), requestId: ctx.requestId };
  await refuseToken(refusal, reason, grant.company_id, { grantId: grant.grant_id, ...more });
}

/** The grant revoked because its code or refresh token came back: by `system`, from the replaying request. */
const revokeReplayed = (ctx: OAuthCtx, grantId: string, reason: string) =>
  revokeGrant(ctx.db, ctx.clock, grantId, {
    actor: SYSTEM_ACTOR,
    ip: addressOf(ctx.req),
    requestId: ctx.requestId,
    reason,
  });

/** The scopes asked for (all those granted an app when none is named), or invalid_scope. */
function narrowed(asked: string | undefined, granted: string[]): string[] {
  const forApp = granted.filter((s) => firstPartyOf([s]).length === 0);
  const wanted = asked?.split(' ').filter(Boolean);
  if (forApp.length === 0) throw new OAuthError(400, 'invalid_scope', 'The grant holds no scope an app may have');
  if (!wanted || wanted.length === 0) return forApp;
  const refused = wanted.filter((s) => !forApp.includes(s));
  if (refused.length > 0) throw new OAuthError(400, 'invalid_scope', `Scopes not granted: ${refused.join(' ')}`);
  return [...new Set(wanted)];
}

async function answer(
  ctx: OAuthCtx,
  companyId: string,
  tokens: { accessToken: string; refreshToken: string },
  scopes: string[],
  ttl: number,
) {
  const company = await companyNameAndZone(ctx.db, companyId);
  return {
    status: 200 as const,
    headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
    body: {
      access_token: tokens.accessToken,
      token_type: 'Bearer' as const,
      expires_in: ttl,
      scope: scopes.join(' '),
      refresh_token: tokens.refreshToken,
      company_id: companyId,
      ...(company ? { company_name: company.name } : {}),
    },
  };
}

/** The scopes and resource checks every grant makes, each refusal audited. */
async function checkedScopes(ctx: OAuthCtx, body: TokenForm, appId: string, grant: OfGrant, granted: string) {
  if (body.resource !== undefined && !isThisResource(body.resource, ctx.config.baseUrl)) {
    await audit(ctx, appId, grant, 'invalid_target');
    throw new OAuthError(
      400,
      'invalid_request',
      `resource: tokens are issued only for ${ctx.config.baseUrl} (RFC 8707)`,
    );
  }
  try {
    return narrowed(body.scope, granted.split(' ').filter(Boolean));
  } catch (err) {
    await audit(ctx, appId, grant, 'scope_not_granted', { scope: body.scope });
    throw err;
  }
}

export async function exchangeCode(body: TokenForm, ctx: OAuthCtx) {
  const { db, clock, config } = ctx;
  const code = body.code ? await findCode(db, body.code) : undefined;
  const app = await appOf(body, ctx, (clientId) => audit(ctx, clientId, code, 'invalid_credentials'));
  const refuse = async (reason: RefusalReason, message: string) => {
    await audit(ctx, app.id, code, reason);
    return invalidGrant(message);
  };
  if (!body.code || !body.code_verifier)
    throw new OAuthError(400, 'invalid_request', 'code and code_verifier are required');
  if (!PKCE_VERIFIER.test(body.code_verifier))
    throw new OAuthError(
      400,
      'invalid_request',
      'code_verifier must be 43 to 128 unreserved characters (RFC 7636 §4.1)',
    );
  if (!code) throw invalidGrant('The code is unknown, or was issued to another client');
  if (code.app_id !== app.id)
    throw await refuse('other_client', 'The code is unknown, or was issued to another client');
  const replayed = async () => {
    await audit(ctx, app.id, code, 'code_reused');
    await revokeReplayed(ctx, code.grant_id, 'an authorization code came back after it was used');
    return invalidGrant('The code was already used: the tokens it gave are revoked');
  };
  if (code.used_at !== null) throw await replayed();
  if (code.revoked_at !== null) throw await refuse('grant_revoked', 'The grant was revoked');
  if (new Date(code.expires_at).getTime() <= clock.now().getTime())
    throw await refuse('code_expired', 'The code expired');
  // RFC 6749 §4.1.3: required, and identical, when the authorization request named it.
  if (body.redirect_uri === undefined && code.redirect_uri_implied !== 1)
    throw new OAuthError(400, 'invalid_request', 'redirect_uri is required: the authorization request named one');
  if (body.redirect_uri !== undefined && body.redirect_uri !== code.redirect_uri)
    throw await refuse('redirect_uri_mismatch', 'redirect_uri differs from the authorization request');
  if (!verifierMatches(body.code_verifier, code.code_challenge))
    throw await refuse('pkce_mismatch', 'The PKCE code_verifier does not match');
  const scopes = await checkedScopes(ctx, body, app.id, code, code.scopes);
  const tokens = await exchangeForTokens(
    db,
    clock,
    { codeHash: code.code_hash },
    { grantId: code.grant_id, appId: app.id, companyId: code.company_id, scopes, ttlSeconds: config.tokenTtlSeconds },
  );
  // Revoked since the code was read (the company, or a replay of it).
  if (tokens === 'revoked') throw await refuse('grant_revoked', 'The grant was revoked');
  if (tokens === 'used') throw await replayed();
  return answer(ctx, code.company_id, tokens, scopes, config.tokenTtlSeconds);
}

export async function exchangeRefreshToken(body: TokenForm, ctx: OAuthCtx) {
  const { db, clock, config } = ctx;
  const presented = body.refresh_token;
  const found = presented ? await findRefreshToken(db, presented) : undefined;
  const app = await appOf(body, ctx, (clientId) => audit(ctx, clientId, found, 'invalid_credentials'));
  if (!presented) throw new OAuthError(400, 'invalid_request', 'refresh_token is required');
  const unknownToken = () => invalidGrant('The refresh token is unknown, revoked, or was issued to another client');
  const refuse = async (reason: RefusalReason) => {
    await audit(ctx, app.id, found, reason);
    return unknownToken();
  };
  if (!found) throw unknownToken();
  if (found.app_id !== app.id) throw await refuse('other_client');
  if (found.revoked_at !== null) throw await refuse('grant_revoked');
  const keys = mintingKeys(config);
  const retriedOrReplayed = async () => {
    const again = await pairGivenBefore(db, clock, keys, presented, { grantId: found.grant_id, appId: app.id });
    if (again) return answer(ctx, found.company_id, again, again.scopes, again.expiresIn);
    await audit(ctx, app.id, found, 'refresh_token_reused');
    await revokeReplayed(ctx, found.grant_id, 'a rotated refresh token came back');
    throw invalidGrant('The refresh token was already used: the grant is revoked');
  };
  if (found.used_at !== null) return retriedOrReplayed();
  if (new Date(found.expires_at).getTime() <= clock.now().getTime()) {
    await audit(ctx, app.id, found, 'refresh_token_expired');
    throw invalidGrant('The refresh token expired');
  }
  const scopes = await checkedScopes(ctx, body, app.id, found, found.scopes);
  const tokens = await exchangeForTokens(
    db,
    clock,
    { refreshTokenHash: found.token_hash },
    { grantId: found.grant_id, appId: app.id, companyId: found.company_id, scopes, ttlSeconds: config.tokenTtlSeconds },
    pairFor(keys[0]!, presented),
  );
  // Revoked since it was read: as if it had been when read.
  if (tokens === 'revoked') throw await refuse('grant_revoked');
  // Exchanged since it was read: a retry racing the first attempt, or reuse.
  if (tokens === 'used') return retriedOrReplayed();
  return answer(ctx, found.company_id, tokens, scopes, config.tokenTtlSeconds);
}
