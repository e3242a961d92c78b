// Reading an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 8707 §2): the client and its
// redirect URI, PKCE S256 (required), the response type, the scopes and the resource. Every app here
// registered itself (RFC 7591), so its redirect URI is whatever its registrant chose: redirecting an
// error there before a person decided would make this server an open redirector (RFC 9700 §4.11.2).
// So every problem is an error page; only the person's decision on the consent page (a code, or
// `access_denied`) is sent to the app.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { ALL_SCOPES, firstPartyOf } from '../auth/public.js';
import { findApp, redirectMatches, type App } from './registration.js';
import { isThisResource } from './resource.js';

const REQUEST_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;

type AuthorizeFields = Partial<Record<(typeof REQUEST_FIELDS)[number], string>>;

export type ReadRequest =
  | { kind: 'page'; message: string }
  | {
      kind: 'consent';
      app: App;
      redirectUri: string;
      /** The request named no redirect_uri: the app's one registered URI is used. */
      redirectUriImplied: boolean;
      scopes: string[];
      codeChallenge: string;
      resource?: string;
      state?: string;
      fields: Record<string, string>;
    };

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** The request's fields, or the name of one sent twice or not as text. */
export function fieldsOf(source: Record<string, unknown>): AuthorizeFields | string {
  const out: AuthorizeFields = {};
  for (const name of REQUEST_FIELDS) {
    const value = source[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > 2000) return name;
    out[name] = value;
  }
  return out;
}

export async function readAuthorizeRequest(
  db: Db,
  clock: Clock,
  fields: AuthorizeFields,
  baseUrl: string,
): Promise<ReadRequest> {
  if (!fields.client_id) return { kind: 'page', message: 'The request names no client_id.' };
  const app = await findApp(db, clock, fields.client_id);
  if (!app) return { kind: 'page', message: `No registered app has the client_id ${fields.client_id}.` };
  const redirectUriImplied = fields.redirect_uri === undefined;
  const redirectUri = fields.redirect_uri ?? (app.redirectUris.length === 1 ? app.redirectUris[0] : undefined);
  if (!redirectUri)
    return { kind: 'page', message: 'The request names no redirect_uri, and the app registered several.' };
  if (!app.redirectUris.some((registered) => redirectMatches(registered, redirectUri)))
    return { kind: 'page', message: `The redirect_uri ${redirectUri} is not one the app registered.` };
  if (!fields.code_challenge)
    return { kind: 'page', message: 'The request has no code_challenge: PKCE with S256 is required (RFC 7636).' };
  if (fields.code_challenge_method !== 'S256')
    return { kind: 'page', message: 'code_challenge_method must be S256; plain PKCE is not accepted.' };
  if (!CHALLENGE.test(fields.code_challenge))
    return { kind: 'page', message: 'code_challenge must be the base64url SHA-256 of the verifier (43 characters).' };
  const page = (error: string, description: string) => ({ kind: 'page', message: `${error}: ${description}` }) as const;
  if (fields.response_type !== 'code')
    return page('unsupported_response_type', 'only response_type=code is supported.');
  const scopes = [...new Set((fields.scope ?? app.scopes?.join(' ') ?? '').split(' ').filter(Boolean))];
  if (scopes.length === 0) return page('invalid_scope', 'the request names no scope the app needs.');
  const unknown = scopes.filter(
    (s) => !(ALL_SCOPES as readonly string[]).includes(s) || (app.scopes !== undefined && !app.scopes.includes(s)),
  );
  if (unknown.length > 0) return page('invalid_scope', `scopes unknown or not registered: ${unknown.join(' ')}.`);
  const firstParty = firstPartyOf(scopes);
  if (firstParty.length > 0)
    return page(
      'invalid_scope',
      `scopes for the company's own API clients only, never an app's: ${firstParty.join(' ')}.`,
    );
  if (fields.resource !== undefined && !isThisResource(fields.resource, baseUrl))
    return page('invalid_target', `tokens are issued only for ${baseUrl}.`);
  // The fields as sent (the form token signs them): an implied redirect_uri stays unnamed on the POST too.
  const kept: Record<string, string> = {};
  for (const name of REQUEST_FIELDS) if (fields[name] !== undefined) kept[name] = fields[name]!;
  return {
    kind: 'consent',
    app,
    redirectUri,
    redirectUriImplied,
    scopes,
    codeChallenge: fields.code_challenge,
    resource: fields.resource,
    state: fields.state,
    fields: kept,
  };
}

/** The app's redirect URI with the answer's parameters (RFC 6749 §4.1.2; `iss` per RFC 9207). */
export function redirectTo(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}
