// The authorization-code flow as an app and a company's administrator go through it: oauth4webapi as
// the app (discovery, registration, PKCE, code exchange), the consent page read and posted as a
// browser would (its cookie, its hidden fields), approval codes from the CLI or the API.
import * as oauth from 'oauth4webapi';
import { financeInProcess } from './cli.js';
import type { TestServer } from './server.js';

export const insecure = { [oauth.allowInsecureRequests]: true };
export const REDIRECT = 'http://127.0.0.1:8765/callback';

export async function discover(server: TestServer): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(server.baseUrl);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }),
  );
}

/** A public client (PKCE only) registered through RFC 7591. */
export async function registerPublicApp(
  as: oauth.AuthorizationServer,
  metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>> = {},
): Promise<oauth.Client> {
  const res = await oauth.dynamicClientRegistrationRequest(
    as,
    { client_name: 'Ledgerly Accounting', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...metadata },
    insecure,
  );
  return oauth.processDynamicClientRegistrationResponse(res);
}

export async function approvalCodeFromCli(server: TestServer, companyId: string, scopes?: string): Promise<string> {
  const args = ['apps', 'approval-code', '--company', companyId, '--db', server.location, '--json'];
  const result = await financeInProcess(scopes ? [...args, '--scopes', scopes] : args);
  if (result.code !== 0) throw new Error(`approval-code failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { code: string }).code;
}

interface Started {
  verifier: string;
  state: string;
  url: URL;
}

export async function authorizeUrl(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  params: Record<string, string> = {},
): Promise<Started> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope: 'statements:read statements:write',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...params,
  }).toString();
  return { verifier, state, url };
}

const unescapeHtml = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
  );

interface ConsentPage {
  status: number;
  html: string;
  headers: Headers;
  cookie: string | undefined;
  fields: Record<string, string>;
}

/** GET of the consent page as a browser makes it (no redirect followed). */
export async function openConsent(url: URL | string, cookie?: string): Promise<ConsentPage> {
  return readConsent(await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} }), cookie);
}

/** A page the consent form answered (the company's step after `review`), read as openConsent reads one. */
export async function readConsent(res: Response, cookie?: string): Promise<ConsentPage> {
  const html = await res.text();
  const setCookie = res.headers.get('set-cookie');
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    fields[unescapeHtml(name!)] = unescapeHtml(value!);
  return { status: res.status, html, headers: res.headers, cookie: setCookie?.split(';')[0] ?? cookie, fields };
}

/** The administrator's POST of the consent form. */
export async function decide(
  baseUrl: string,
  page: ConsentPage,
  decision: string,
  approvalCode?: string,
  overrides: Record<string, string> = {},
): Promise<Response> {
  const body = new URLSearchParams({
    ...page.fields,
    decision,
    ...(approvalCode !== undefined ? { approval_code: approvalCode } : {}),
    ...overrides,
  });
  return fetch(`${baseUrl}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(page.cookie ? { cookie: page.cookie } : {}) },
    body,
  });
}

/**
 * The whole approval: consent page, approval code (from the CLI unless given, e.g. one made through
 * the API), the code exchanged for tokens.
 */
export async function approveAndExchange(
  server: TestServer,
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  companyId: string,
  params: Record<string, string> = {},
  approvalCode?: string,
): Promise<oauth.TokenEndpointResponse> {
  const started = await authorizeUrl(as, client, params);
  const page = await openConsent(started.url);
  const code = approvalCode ?? (await approvalCodeFromCli(server, companyId));
  const answer = await decide(server.baseUrl, page, 'approve', code);
  if (answer.status !== 302) throw new Error(`approval failed: ${answer.status} ${await answer.text()}`);
  const callback = oauth.validateAuthResponse(as, client, new URL(answer.headers.get('location')!), started.state);
  const res = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    callback,
    REDIRECT,
    started.verifier,
    insecure,
  );
  return oauth.processAuthorizationCodeResponse(as, client, res);
}
