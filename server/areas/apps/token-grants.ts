// POST /oauth/token for apps: `authorization_code` (RFC 6749 §4.1.3 with PKCE, RFC 7636 §4.6) and
// `refresh_token` (§6, rotated on every use, RFC 9700 §4.14.2). A code is single use, lives 60 s and is
// bound to its app, redirect URI and PKCE challenge; presenting a used code again revokes its grant
// (§4.1.2). Presenting a refresh token already exchanged revokes the grant: one of the two holders
// is not the app. Errors are RFC 6749 §5.2's.
import { SYSTEM_ACTOR } from '../audit/public.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import basicAuth from 'basic-auth';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Config } from '../../config.js';
import type { Request } from 'express';
import { OAuthError } from '../../kit/errors.js';
import { assertNotThrottled, formDecoded, recordFailure } from '../auth/public.js';
import { authenticateApp, type App } from './registration.js';
import { exchangeForTokens, findCode, findRefreshToken, revokeGrant } from './grants.js';
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

interface Ctx {
  db: Db;
  clock: Clock;
  config: Config;
  req: Request;
}

const invalidGrant = (message: string) => new OAuthError(400, 'invalid_grant', message);
const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** RFC 7636 §4.6: BASE64URL(SHA256(verifier)) equals the challenge, compared in constant time. */
function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** The app making the request, authenticated as it registered (public: client_id only). */
export async function clientOf(body: { client_id?: string; client_secret?: string }, ctx: Ctx): Promise<App> {
  const { req, db, clock, config } = ctx;
  const basic = req.headers.authorization ? basicAuth(req) : undefined;
  if (req.headers.authorization && !basic)
    throw new OAuthError(401, 'invalid_client', 'The Authorization header is not valid HTTP Basic');
  if (
    basic &&
    (body.client_id !== undefined || body.client_secret !== undefined) &&
    body.client_id !== formDecoded(basic.name)
  )
    throw new OAuthError(400, 'invalid_request', 'Authenticate with HTTP Basic or with form fields, not both');
  const clientId = (basic ? formDecoded(basic.name) : body.client_id)?.replaceAll('\u0000', '\uFFFD');
  const secret = basic ? formDecoded(basic.pass) : body.client_secret;
  if (!clientId) throw new OAuthError(401, 'invalid_client', 'Client identification is required (client_id)');
  const attempt = { clientId, address: req.ip ?? req.socket.remoteAddress ?? '' };
  const limits = { perSource: config.authSourceFailuresPerMinute, perClient: config.authFailuresPerMinute };
  await assertNotThrottled(db, attempt, clock.now(), limits);
  const app = await authenticateApp(db, clock, clientId, secret);
  if (!app) {
    await recordFailure(db, attempt, clock.now());
    throw new OAuthError(401, 'invalid_client', 'Client authentication failed');
  }
  return app;
}

function narrowed(asked: string | undefined, granted: string[]): string[] {
  const wanted = asked?.split(' ').filter(Boolean);
  if (!wanted || wanted.length === 0) return granted;
  const refused = wanted.filter((s) => !granted.includes(s));
  if (refused.length > 0) throw new OAuthError(400, 'invalid_scope', `Scopes not granted: ${refused.join(' ')}`);
  return [...new Set(wanted)];
}

function checkResource(asked: string | undefined, baseUrl: string) {
  if (asked !== undefined && !isThisResource(asked, baseUrl))
    throw new OAuthError(400, 'invalid_request', `resource: tokens are issued only for ${baseUrl} (RFC 8707)`);
}

const answer = (tokens: { accessToken: string; refreshToken: string }, scopes: string[], ttl: number) => ({
  status: 200 as const,
  headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
  body: {
    access_token: tokens.accessToken,
    token_type: 'Bearer' as const,
    expires_in: ttl,
    scope: scopes.join(' '),
    refresh_token: tokens.refreshToken,
  },
});

export async function exchangeCode(body: TokenForm, ctx: Ctx) {
  const app = await clientOf(body, ctx);
  const { db, clock, config } = ctx;
  if (!body.code || !body.redirect_uri || !body.code_verifier)
    throw new OAuthError(400, 'invalid_request', 'code, redirect_uri and code_verifier are required');
  if (!PKCE_VERIFIER.test(body.code_verifier))
    throw new OAuthError(
      400,
      'invalid_request',
      'code_verifier must be 43 to 128 unreserved characters (RFC 7636 §4.1)',
    );
  const code = await findCode(db, body.code);
  if (!code || code.app_id !== app.id) throw invalidGrant('The code is unknown, or was issued to another client');
  if (code.used_at !== null || code.revoked_at !== null) {
    await revokeGrant(db, clock, code.grant_id, {
      actor: SYSTEM_ACTOR,
      reason: 'an authorization code came back after it was used',
    });
    throw invalidGrant('The code was already used: the tokens it gave are revoked');
  }
  if (new Date(code.expires_at).getTime() <= clock.now().getTime()) throw invalidGrant('The code expired');
  if (code.redirect_uri !== body.redirect_uri)
    throw invalidGrant('redirect_uri differs from the authorization request');
  if (!verifierMatches(body.code_verifier, code.code_challenge))
    throw invalidGrant('The PKCE code_verifier does not match');
  checkResource(body.resource, config.baseUrl);
  const granted = code.scopes.split(' ').filter(Boolean);
  const scopes = narrowed(body.scope, granted);
  const tokens = await exchangeForTokens(
    db,
    clock,
    { codeHash: code.code_hash },
    { grantId: code.grant_id, appId: app.id, companyId: code.company_id, scopes, ttlSeconds: config.tokenTtlSeconds },
  );
  // Revoked since the code was read (the company, or a replay of it).
  if (tokens === 'revoked') throw invalidGrant('The grant was revoked');
  if (tokens === 'used') {
    await revokeGrant(db, clock, code.grant_id, {
      actor: SYSTEM_ACTOR,
      reason: 'an authorization code came back after it was used',
    });
    throw invalidGrant('The code was already used: the tokens it gave are revoked');
  }
  return answer(tokens, scopes, config.tokenTtlSeconds);
}

export async function exchangeRefreshToken(body: TokenForm, ctx: Ctx) {
  const app = await clientOf(body, ctx);
  const { db, clock, config } = ctx;
  if (!body.refresh_token) throw new OAuthError(400, 'invalid_request', 'refresh_token is required');
  const found = await findRefreshToken(db, body.refresh_token);
  const unknownToken = () => invalidGrant('The refresh token is unknown, revoked, or was issued to another client');
  if (!found || found.app_id !== app.id || found.revoked_at !== null) throw unknownToken();
  if (found.used_at !== null) {
    await revokeGrant(db, clock, found.grant_id, { actor: SYSTEM_ACTOR, reason: 'a rotated refresh token came back' });
    throw invalidGrant('The refresh token was already used: the grant is revoked');
  }
  if (new Date(found.expires_at).getTime() <= clock.now().getTime()) throw invalidGrant('The refresh token expired');
  checkResource(body.resource, config.baseUrl);
  const scopes = narrowed(body.scope, found.scopes.split(' ').filter(Boolean));
  const tokens = await exchangeForTokens(
    db,
    clock,
    { refreshTokenHash: found.token_hash },
    { grantId: found.grant_id, appId: app.id, companyId: found.company_id, scopes, ttlSeconds: config.tokenTtlSeconds },
  );
  // Revoked since it was read: as if it had been when read.
  if (tokens === 'revoked') throw unknownToken();
  if (tokens === 'used') {
    await revokeGrant(db, clock, found.grant_id, { actor: SYSTEM_ACTOR, reason: 'a rotated refresh token came back' });
    throw invalidGrant('The refresh token was already used: the grant is revoked');
  }
  return answer(tokens, scopes, config.tokenTtlSeconds);
}
