// Who calls the apps' OAuth endpoints. The token endpoint's code and refresh grants take an app (a
// public one by its client_id alone, a confidential one with its secret); revocation and
// introspection take an app or an API client, each about its own tokens. Credentials come by HTTP
// Basic (form-urlencoded inside, RFC 6749 §2.3.1) or by form fields, not both. Failures are counted as
// the client-credentials grant counts them (per client id from the address, per address: the auth
// area's throttle), and an authentication that succeeds clears its client's count from the address.
import basicAuth from 'basic-auth';
import type { Request } from 'express';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Config } from '../../config.js';
import { OAuthError } from '../../kit/errors.js';
import {
  assertNotThrottled,
  authenticateClient,
  clearClientFailures,
  formDecoded,
  recordFailure,
} from '../auth/public.js';
import { authenticateApp, type App } from './registration.js';

export interface OAuthCtx {
  db: Db;
  clock: Clock;
  config: Config;
  req: Request;
  requestId: string;
}

interface Credentials {
  client_id?: string;
  client_secret?: string;
}

/** The request's address, as the throttle and the audit log name it. */
export const addressOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? '';

/** Authenticates the request's client with `check`, throttled; `onFailure` hears the client id refused. */
async function authenticate<T>(
  body: Credentials,
  ctx: OAuthCtx,
  check: (clientId: string, secret: string | undefined) => Promise<T | undefined>,
  onFailure?: (clientId: string) => Promise<void>,
): Promise<T> {
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
  // PostgreSQL text cannot hold NUL: an id with one names no client, and is counted as one with U+FFFD.
  const clientId = (basic ? formDecoded(basic.name) : body.client_id)?.replaceAll('\u0000', '\uFFFD');
  const secret = basic ? formDecoded(basic.pass) : body.client_secret;
  if (!clientId) throw new OAuthError(401, 'invalid_client', 'Client identification is required (client_id)');
  const attempt = { clientId, address: addressOf(req) };
  const limits = { perSource: config.authSourceFailuresPerMinute, perClient: config.authFailuresPerMinute };
  const counted = await assertNotThrottled(db, attempt, clock.now(), limits);
  const found = await check(clientId, secret);
  if (found === undefined) {
    await recordFailure(db, attempt, clock.now());
    await onFailure?.(clientId);
    throw new OAuthError(401, 'invalid_client', 'Client authentication failed');
  }
  if (counted) await clearClientFailures(db, attempt);
  return found;
}

/** The app making a token request, authenticated as it registered (public: client_id only). */
export function appOf(body: Credentials, ctx: OAuthCtx, onFailure?: (clientId: string) => Promise<void>) {
  return authenticate(body, ctx, (id, secret) => authenticateApp(ctx.db, ctx.clock, id, secret), onFailure);
}

/** An app, or an API client (its id and secret; revoked ones are refused, expired ones not: they hold nothing alive). */
export type Caller = { kind: 'app'; clientId: string; app: App } | { kind: 'client'; clientId: string };

/** The client revoking or introspecting: an app (`app_…`) or one of the companies' API clients. */
export function callerOf(body: Credentials, ctx: OAuthCtx): Promise<Caller> {
  return authenticate(body, ctx, async (clientId, secret): Promise<Caller | undefined> => {
    if (clientId.startsWith('app_')) {
      const app = await authenticateApp(ctx.db, ctx.clock, clientId, secret);
      return app && { kind: 'app', clientId, app };
    }
    if (secret === undefined) return undefined;
    const client = await authenticateClient(ctx.db, ctx.clock, clientId, secret);
    return client && { kind: 'client', clientId };
  });
}
