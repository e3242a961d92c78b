// The authorization-code grant with PKCE (RFC 6749 §4.1, RFC 7636 S256) for an app acting for a
// company: build the consent URL, exchange the code the company's approval sends back, then keep the
// tokens fresh with the rotating refresh token, handing every new pair to the app to persist.
import { FinanceApiError } from './errors.js';
import { basic, type TokenAnswer, type TokenGrant } from './token.js';

/** What an app keeps between runs (store it like a password: the refresh token acts for the company). */
export interface AppTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires (ISO 8601). */
  expiresAt: string;
  scope: string;
  /**
   * The company that approved the app, whose data the tokens read: file each pair under it. Every
   * answer names it; optional so that tokens stored before it did still type-check.
   */
  companyId?: string;
  /** That company's name, as the last token answer gave it. */
  companyName?: string;
}

export interface AppIdentity {
  /** The API's base URL (the issuer), e.g. `http://localhost:8080`. */
  baseUrl: string;
  /** The app's `client_id` from `POST /oauth/register`. */
  clientId: string;
  /** Confidential apps only; public apps (`token_endpoint_auth_method: none`) have none. */
  clientSecret?: string;
  redirectUri: string;
  fetch?: (request: Request) => Promise<Response>;
}

/** An authorization in progress: open `url` in the administrator's browser, keep the rest for the callback. */
export interface AuthorizationStart {
  url: string;
  state: string;
  codeVerifier: string;
}

const base64url = (bytes: Uint8Array) => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const randomText = (bytes: number) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));
const trimmed = (url: string) => url.replace(/\/+$/, '');

/** The consent page's URL with a fresh PKCE verifier (S256) and state. */
export async function startAuthorization(
  app: AppIdentity,
  options: { scope: string | readonly string[]; resource?: string },
): Promise<AuthorizationStart> {
  const codeVerifier = randomText(32);
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier))),
  );
  const state = randomText(16);
  const url = new URL(`${trimmed(app.baseUrl)}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    scope: typeof options.scope === 'string' ? options.scope : options.scope.join(' '),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(options.resource ? { resource: options.resource } : {}),
  }).toString();
  return { url: url.toString(), state, codeVerifier };
}

function clientAuth(app: AppIdentity, form: URLSearchParams): Record<string, string> {
  if (app.clientSecret !== undefined) return { Authorization: basic(app.clientId, app.clientSecret) };
  form.set('client_id', app.clientId);
  return {};
}

/** The approving company's fields, those known. */
const company = (companyId: string | undefined, companyName: string | undefined) => ({
  ...(companyId !== undefined ? { companyId } : {}),
  ...(companyName !== undefined ? { companyName } : {}),
});

const toAppTokens = (answer: TokenAnswer, expiresAt: Date, previous?: AppTokens): AppTokens => ({
  accessToken: answer.access_token,
  refreshToken: answer.refresh_token ?? previous?.refreshToken ?? '',
  expiresAt: expiresAt.toISOString(),
  scope: answer.scope ?? previous?.scope ?? '',
  ...company(answer.company_id ?? previous?.companyId, answer.company_name ?? previous?.companyName),
});

/**
 * Reads the redirect the browser came back with (its full URL), checks `state` and `iss`, and
 * exchanges the code. A denial or a mismatched state throws before anything is sent.
 */
export async function exchangeAuthorizationCode(
  app: AppIdentity,
  started: AuthorizationStart,
  callbackUrl: string,
): Promise<AppTokens> {
  const params = new URL(callbackUrl).searchParams;
  const fail = (error: string, message: string) =>
    new FinanceApiError({ status: 400, error, message, code: 400, body: Object.fromEntries(params) });
  if (params.get('state') !== started.state) throw fail('state_mismatch', 'The callback state is not the one sent');
  const iss = params.get('iss');
  if (iss !== null && trimmed(iss) !== trimmed(app.baseUrl))
    throw fail('issuer_mismatch', `The callback came from ${iss}`);
  const error = params.get('error');
  if (error) throw fail(error, params.get('error_description') ?? error);
  const code = params.get('code');
  if (!code) throw fail('invalid_callback', 'The callback carries no code');
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: app.redirectUri,
    code_verifier: started.codeVerifier,
  });
  const headers = clientAuth(app, form);
  const sentAt = Date.now();
  const send = app.fetch ?? ((request: Request) => globalThis.fetch(request));
  const response = await send(
    new Request(`${trimmed(app.baseUrl)}/oauth/token`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
    }),
  );
  if (!response.ok) throw await FinanceApiError.fromResponse(response);
  const answer = (await response.json()) as TokenAnswer;
  return toAppTokens(answer, new Date(sentAt + answer.expires_in * 1000));
}

/**
 * The grant a client of an approved app uses: the stored access token while fresh, then the refresh
 * token, rotated at every use; `onTokens` receives each new pair before it is used (persist it: the
 * previous refresh token no longer works, and using it again revokes the app's access).
 */
export function refreshTokenGrant(
  app: Omit<AppIdentity, 'redirectUri' | 'baseUrl' | 'fetch'>,
  tokens: AppTokens,
  onTokens: (tokens: AppTokens) => void | Promise<void>,
): TokenGrant {
  let current = tokens;
  return {
    initial: { accessToken: tokens.accessToken, expiresAt: new Date(tokens.expiresAt) },
    request: () => {
      const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: current.refreshToken });
      return { form, headers: clientAuth({ ...app, baseUrl: '', redirectUri: '' }, form) };
    },
    received: async (answer, expiresAt) => {
      current = toAppTokens(answer, expiresAt, current);
      await onTokens(current);
    },
  };
}
