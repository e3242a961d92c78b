// Apps registered by RFC 7591 dynamic registration: public (PKCE only) or confidential (a secret,
// scrypt-hashed like API clients'). A registration no company approved is forgotten after a day.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { OAuthError } from '../../kit/errors.js';
import { ALL_SCOPES, firstPartyOf, hashSecret, newSecret, verifySecret } from '../auth/public.js';

const UNUSED_TTL_MS = 24 * 3600 * 1000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Loopback IP literals, whose port a native app picks when it starts listening (RFC 8252 §7.3). */
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);

interface Registration {
  client_name: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'none' | 'client_secret_basic' | 'client_secret_post';
  grant_types?: ('authorization_code' | 'refresh_token')[];
  response_types?: 'code'[];
  scope?: string;
}

/** Why a redirect URI is refused, or undefined when it is acceptable (RFC 9700 §2.1, §4.1.3; RFC 8252 §7.3). */
function redirectProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri}: not an absolute URI`;
  }
  if (uri.includes('#')) return `${uri}: a redirect URI has no fragment`;
  if (url.username || url.password) return `${uri}: a redirect URI carries no credentials`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return `${uri}: use https, or http on a loopback host (127.0.0.1, [::1], localhost)`;
}

/**
 * Whether `requested` is the registered redirect URI: the same string, or, for `http` on a loopback
 * IP literal, the same URI on any port (RFC 8252 §7.3). `localhost` is matched exactly: it may resolve
 * elsewhere, and RFC 8252 §8.3 advises against it.
 */
export function redirectMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  let asked: URL;
  let known: URL;
  try {
    asked = new URL(requested);
    known = new URL(registered);
  } catch {
    return false;
  }
  if (known.protocol !== 'http:' || !LOOPBACK_IPS.has(known.hostname) || asked.href !== requested) return false;
  known.port = asked.port;
  return known.href === requested;
}

export async function registerApp(db: Db, clock: Clock, input: Registration) {
  for (const uri of input.redirect_uris) {
    const problem = redirectProblem(uri);
    if (problem) throw new OAuthError(400, 'invalid_redirect_uri', problem);
  }
  const scopes = input.scope?.split(' ').filter(Boolean);
  const unknown = scopes?.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s)) ?? [];
  if (unknown.length > 0) throw new OAuthError(400, 'invalid_client_metadata', `Unknown scopes: ${unknown.join(' ')}`);
  const firstParty = firstPartyOf(scopes ?? []);
  if (firstParty.length > 0)
    throw new OAuthError(
      400,
      'invalid_client_metadata',
      `Scopes for the company's own API clients only, never an app's: ${firstParty.join(' ')}`,
    );
  if (input.client_name.trim().length === 0)
    throw new OAuthError(400, 'invalid_client_metadata', 'client_name must not be blank');
  const method = input.token_endpoint_auth_method ?? 'client_secret_basic';
  const clientSecret = method === 'none' ? undefined : newSecret('sk_app_');
  const now = clock.now();
  const id = `app_${randomBytes(12).toString('hex')}`;
  const redirectUris = [...new Set(input.redirect_uris)];
  await db.deleteFrom('oauth_apps').where('unused_expires_at', '<=', now.toISOString()).execute();
  await db
    .insertInto('oauth_apps')
    .values({
      id,
      name: input.client_name.trim(),
      redirect_uris: JSON.stringify(redirectUris),
      auth_method: method,
      secret_hash: clientSecret ? await hashSecret(clientSecret) : null,
      scope: scopes && scopes.length > 0 ? [...new Set(scopes)].join(' ') : null,
      created_at: now.toISOString(),
      unused_expires_at: new Date(now.getTime() + UNUSED_TTL_MS).toISOString(),
    })
    .execute();
  return {
    client_id: id,
    ...(clientSecret ? { client_secret: clientSecret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: input.client_name.trim(),
    redirect_uris: redirectUris,
    token_endpoint_auth_method: method,
    grant_types: ['authorization_code', 'refresh_token'] as ('authorization_code' | 'refresh_token')[],
    response_types: ['code'] as 'code'[],
    ...(scopes && scopes.length > 0 ? { scope: [...new Set(scopes)].join(' ') } : {}),
  };
}

export interface App {
  id: string;
  name: string;
  redirectUris: string[];
  authMethod: string;
  secretHash: string | null;
  scopes: string[] | undefined;
}

/** The registered app, unless unknown or expired unused. */
export async function findApp(db: Db, clock: Clock, clientId: string): Promise<App | undefined> {
  const row = await db.selectFrom('oauth_apps').selectAll().where('id', '=', clientId).executeTakeFirst();
  if (!row) return undefined;
  if (row.unused_expires_at !== null && Date.parse(row.unused_expires_at) <= clock.now().getTime()) return undefined;
  return {
    id: row.id,
    name: row.name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    authMethod: row.auth_method,
    secretHash: row.secret_hash,
    scopes: row.scope?.split(' '),
  };
}

/** The app when its credentials are right: a public app sends none, a confidential one its secret. */
export async function authenticateApp(db: Db, clock: Clock, clientId: string, secret: string | undefined) {
  const app = await findApp(db, clock, clientId);
  if (!app) {
    if (secret) await hashSecret(secret);
    return undefined;
  }
  if (app.authMethod === 'none') return secret === undefined ? app : undefined;
  if (secret === undefined || !app.secretHash) return undefined;
  return (await verifySecret(secret, app.secretHash)) ? app : undefined;
}

/** A company approved the app: it no longer expires unused. */
export async function markAppUsed(db: Db, appId: string): Promise<void> {
  await db.updateTable('oauth_apps').set({ unused_expires_at: null }).where('id', '=', appId).execute();
}
