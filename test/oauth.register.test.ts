// RFC 7591 dynamic registration: public and confidential apps, redirect URI rules, the rate limit and
// the expiry of registrations never approved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  REDIRECT,
  approveAndExchange,
  authorizeUrl,
  discover,
  insecure,
  openConsent,
  registerPublicApp,
} from './support/oauth-flow.js';

let server: TestServer;
let acme: TestCompany;
let as: oauth.AuthorizationServer;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  as = await discover(server);
});
afterAll(async () => server.close());

const register = (body: unknown) =>
  fetch(`${server.baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('registerOAuthClient', () => {
  it('when a public client registers a loopback redirect, then it gets a client id and no secret', async () => {
    const client = await registerPublicApp(as);
    expect(client.client_id).toMatch(/^app_[0-9a-f]{24}$/);
    expect(client.client_secret).toBeUndefined();
    expect(client).toMatchObject({
      token_endpoint_auth_method: 'none',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
    });
  });

  it('when a redirect is plain http on a remote host, then it is invalid_redirect_uri', async () => {
    for (const uri of [
      'http://app.example/callback',
      'javascript:alert(1)',
      'https://app.example/cb#frag',
      'not a uri',
    ]) {
      const res = await register({ client_name: 'Bad', redirect_uris: [uri], token_endpoint_auth_method: 'none' });
      expect(res.status, uri).toBe(400);
      expect(((await res.json()) as { error: string }).error, uri).toBe('invalid_redirect_uri');
    }
    const ok = await register({
      client_name: 'Good',
      redirect_uris: ['https://app.example/callback', 'http://[::1]:9/cb'],
    });
    expect(ok.status).toBe(201);
  });

  it('when metadata is malformed or names an unknown or first-party scope, then it is an RFC 7591 error saying why, not a 500', async () => {
    const noName = await register({ redirect_uris: [REDIRECT] });
    expect(noName.status).toBe(400);
    expect(await noName.json()).toMatchObject({
      error: 'invalid_request',
      error_description: 'Missing field "client_name" in the body',
    });
    const text = await fetch(`${server.baseUrl}/oauth/register`, { method: 'POST', body: 'client_name=X' });
    expect(text.status).toBe(415);
    const unknownScope = await register({ client_name: 'X', redirect_uris: [REDIRECT], scope: 'everything' });
    expect(((await unknownScope.json()) as { error: string }).error).toBe('invalid_client_metadata');
    for (const scope of ['clients:manage', 'apps:manage', 'webhooks:write', 'audit:read', 'sandbox:write']) {
      const firstParty = await register({
        client_name: 'X',
        redirect_uris: [REDIRECT],
        scope: `statements:read ${scope}`,
      });
      expect(firstParty.status, scope).toBe(400);
      expect(await firstParty.json(), scope).toMatchObject({
        error: 'invalid_client_metadata',
        error_description: expect.stringContaining(scope),
      });
    }
  });

  it('when a confidential client registers, then it gets a secret once and authenticates with it at the token endpoint', async () => {
    const res = await oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: 'Ledgerly Server',
        redirect_uris: ['https://ledgerly.example/cb'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      insecure,
    );
    const client = await oauth.processDynamicClientRegistrationResponse(res);
    expect(client.client_secret).toMatch(/^sk_app_/);
    const bad = await oauth.refreshTokenGrantRequest(as, client, oauth.ClientSecretBasic('wrong'), 'rt_x', insecure);
    expect(bad.status).toBe(401);
    const good = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(client.client_secret as string),
      'rt_x',
      insecure,
    );
    expect(good.status).toBe(400); // authenticated; the refresh token is what is unknown
  });

  it('when a registration is never approved for a day, then it is forgotten; once approved, it stays', async () => {
    const unused = await registerPublicApp(as);
    const used = await registerPublicApp(as);
    await approveAndExchange(server, as, used, acme.companyId);
    server.clock.advance(24 * 3600 * 1000 + 1000);
    const page = await openConsent((await authorizeUrl(as, unused)).url);
    expect(page.status).toBe(400);
    expect(page.html).toContain('No registered app');
    expect((await openConsent((await authorizeUrl(as, used)).url)).status).toBe(200);
  });

  it('when one address registers too many apps in a minute, then it gets 429', async () => {
    let last = 0;
    for (let i = 0; i < 21; i++)
      last = (await register({ client_name: `Flood ${i}`, redirect_uris: [REDIRECT] })).status;
    expect(last).toBe(429);
  });
});
