// The typed client as an app uses it: the consent URL with PKCE, the code exchange, then calls that
// refresh the access token transparently, each rotated pair handed to the app's callback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFinanceClient,
  exchangeAuthorizationCode,
  FinanceApiError,
  startAuthorization,
  unwrap,
  type AppTokens,
} from '../client/index.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  REDIRECT,
  approvalCodeFromCli,
  decide,
  discover,
  openConsent,
  registerPublicApp,
} from './support/oauth-flow.js';

let server: TestServer;
let acme: TestCompany;
let clientId: string;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  clientId = (await registerPublicApp(await discover(server))).client_id;
});
afterAll(async () => server.close());

const identity = () => ({ baseUrl: server.baseUrl, clientId, redirectUri: REDIRECT });

/** What the administrator's browser does with the URL: the consent page, approved with a code. */
async function approveInBrowser(url: string): Promise<string> {
  const answer = await decide(
    server.baseUrl,
    await openConsent(url),
    'approve',
    await approvalCodeFromCli(server, acme.companyId),
  );
  expect(answer.status).toBe(302);
  return answer.headers.get('location')!;
}

describe('authorization-code helper of the client', () => {
  it('when an app starts, exchanges and calls, then the access token is refreshed transparently and each new pair is persisted', async () => {
    const started = await startAuthorization(identity(), { scope: ['statements:read'] });
    const url = new URL(started.url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const tokens = await exchangeAuthorizationCode(identity(), started, await approveInBrowser(started.url));
    expect(tokens.scope).toBe('statements:read');
    expect(tokens.companyId).toBe(acme.companyId);

    const saved: AppTokens[] = [];
    const finance = createFinanceClient({
      baseUrl: server.baseUrl,
      clock: server.clock,
      app: { clientId, tokens, onTokens: (t) => void saved.push(t) },
    });
    await unwrap(finance.GET('/statements/v1/banking', {}));
    expect(saved).toEqual([]); // the stored access token was still fresh

    server.clock.advance(31 * 60 * 1000);
    await unwrap(finance.GET('/statements/v1/banking', {}));
    expect(saved).toHaveLength(1);
    expect(saved[0]!.refreshToken).not.toBe(tokens.refreshToken);
    // The first refresh token was rotated away: past the retry grace, presenting it again is refused.
    server.clock.advance(61_000);
    const stale = createFinanceClient({
      baseUrl: server.baseUrl,
      clock: server.clock,
      retry: { maxRetries: 0 },
      app: { clientId, tokens: { ...tokens, expiresAt: new Date(0).toISOString() }, onTokens: () => undefined },
    });
    await expect(unwrap(stale.GET('/statements/v1/banking', {}))).rejects.toBeInstanceOf(FinanceApiError);
  });

  it('when the callback carries another state or a denial, then the exchange throws before sending anything', async () => {
    const started = await startAuthorization(identity(), { scope: 'statements:read' });
    const callback = await approveInBrowser(started.url);
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged');
    await expect(exchangeAuthorizationCode(identity(), started, forged.toString())).rejects.toMatchObject({
      error: 'state_mismatch',
    });
    const denied = `${REDIRECT}?error=access_denied&state=${started.state}`;
    await expect(exchangeAuthorizationCode(identity(), started, denied)).rejects.toMatchObject({
      error: 'access_denied',
    });
    // The real callback still works: nothing was spent.
    expect((await exchangeAuthorizationCode(identity(), started, callback)).accessToken).toMatch(/^oat_/);
  });
});
