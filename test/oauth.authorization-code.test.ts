// The authorization-code grant with PKCE end to end, with oauth4webapi as the app: consent page,
// approval code from the CLI, code exchange (the company named in the answer), the token's scopes, an
// omitted redirect_uri, loopback ports, refresh rotation, its retry grace and reuse, RFC 7009, and the
// audit entries of refused requests and replays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  REDIRECT,
  approvalCodeFromCli,
  approveAndExchange,
  authorizeUrl,
  decide,
  discover,
  insecure,
  openConsent,
  registerPublicApp,
} from './support/oauth-flow.js';

let server: TestServer;
let acme: TestCompany;
let as: oauth.AuthorizationServer;
let app: oauth.Client;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany({ name: 'Acme Comércio Ltda' });
  as = await discover(server);
  app = await registerPublicApp(as);
});
afterAll(async () => server.close());

const tokenError = async (res: Response) => ({ status: res.status, body: (await res.json()) as { error: string } });

describe('authorization code with PKCE', () => {
  it('when the administrator approves with a CLI approval code, then the app gets a 302 with code and state, and its token reads statements but not the directory', async () => {
    const started = await authorizeUrl(as, app);
    const page = await openConsent(started.url);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Ledgerly Accounting');
    expect(page.html).toContain('statements:write');
    expect(page.html).toContain('127.0.0.1:8765');
    const answer = await decide(server.baseUrl, page, 'approve', await approvalCodeFromCli(server, acme.companyId));
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe(started.state);
    expect(location.searchParams.get('code')).toMatch(/^ac_/);
    const callback = oauth.validateAuthResponse(as, app, location, started.state);

    // A wrong verifier is refused and leaves the code usable; the right one works once.
    const wrong = await oauth.authorizationCodeGrantRequest(
      as,
      app,
      oauth.None(),
      callback,
      REDIRECT,
      oauth.generateRandomCodeVerifier(),
      insecure,
    );
    expect(await tokenError(wrong)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      app,
      oauth.None(),
      callback,
      REDIRECT,
      started.verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, app, res);
    expect(tokens.scope).toBe('statements:read statements:write');
    expect(tokens.refresh_token).toMatch(/^rt_/);
    expect(tokens).toMatchObject({ company_id: acme.companyId, company_name: 'Acme Comércio Ltda' });

    const api = server.apiWithToken(tokens.access_token);
    expect((await api.GET('/statements/v1/banking', {})).response.status).toBe(200);
    const directory = await api.GET('/cost-centers/v1/cost-centers', {});
    expect(directory.response.status).toBe(403);

    // The code again: refused, and the token it gave stops working.
    const again = await oauth.authorizationCodeGrantRequest(
      as,
      app,
      oauth.None(),
      callback,
      REDIRECT,
      started.verifier,
      insecure,
    );
    expect(await tokenError(again)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await api.GET('/statements/v1/banking', {})).response.status).toBe(401);
  });

  it('when the approval code is wrong or already used, then the page comes back with an error and nothing is redirected', async () => {
    const started = await authorizeUrl(as, app);
    const page = await openConsent(started.url);
    const wrong = await decide(server.baseUrl, page, 'approve', 'apv_not-a-code');
    expect(wrong.status).toBe(400);
    expect(wrong.headers.get('location')).toBeNull();
    expect(await wrong.text()).toContain('wrong, expired or already used');

    const code = await approvalCodeFromCli(server, acme.companyId);
    expect((await decide(server.baseUrl, page, 'approve', code)).status).toBe(302);
    const reused = await decide(server.baseUrl, await openConsent(started.url), 'approve', code);
    expect(reused.status).toBe(400);
  });

  it('when the administrator denies, then the app is sent access_denied with its state', async () => {
    const started = await authorizeUrl(as, app);
    const answer = await decide(server.baseUrl, await openConsent(started.url), 'deny');
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe(started.state);
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('when the approval code has a scope ceiling, then the app gets only the scopes within it', async () => {
    const started = await authorizeUrl(as, app);
    const code = await approvalCodeFromCli(server, acme.companyId, 'statements:read');
    const answer = await decide(server.baseUrl, await openConsent(started.url), 'approve', code);
    const callback = oauth.validateAuthResponse(as, app, new URL(answer.headers.get('location')!), started.state);
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      app,
      oauth.None(),
      callback,
      REDIRECT,
      started.verifier,
      insecure,
    );
    expect((await oauth.processAuthorizationCodeResponse(as, app, res)).scope).toBe('statements:read');
  });

  it('when the code is exchanged with another redirect_uri or by another client, then it is invalid_grant', async () => {
    const other = await registerPublicApp(as, { client_name: 'Other app' });
    const started = await authorizeUrl(as, app);
    const answer = await decide(
      server.baseUrl,
      await openConsent(started.url),
      'approve',
      await approvalCodeFromCli(server, acme.companyId),
    );
    const callback = oauth.validateAuthResponse(as, app, new URL(answer.headers.get('location')!), started.state);
    const code = callback.get('code')!;
    const post = (fields: Record<string, string>) =>
      fetch(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          code_verifier: started.verifier,
          ...fields,
        }),
      });
    expect(await tokenError(await post({ client_id: other.client_id, redirect_uri: REDIRECT }))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(
      await tokenError(await post({ client_id: app.client_id, redirect_uri: 'http://127.0.0.1:8765/other' })),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(
      await tokenError(
        await post({ client_id: app.client_id, redirect_uri: REDIRECT, resource: 'https://evil.example' }),
      ),
    ).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const ok = await post({ client_id: app.client_id, redirect_uri: REDIRECT, resource: server.baseUrl });
    expect(ok.status).toBe(200);
  });

  it('when the code is older than a minute, then it is invalid_grant', async () => {
    const started = await authorizeUrl(as, app);
    const answer = await decide(
      server.baseUrl,
      await openConsent(started.url),
      'approve',
      await approvalCodeFromCli(server, acme.companyId),
    );
    const callback = oauth.validateAuthResponse(as, app, new URL(answer.headers.get('location')!), started.state);
    server.clock.advance(61_000);
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      app,
      oauth.None(),
      callback,
      REDIRECT,
      started.verifier,
      insecure,
    );
    expect(await tokenError(res)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});

describe('refresh tokens', () => {
  const refresh = (token: string) => oauth.refreshTokenGrantRequest(as, app, oauth.None(), token, insecure);
  const refreshed = async (token: string) => oauth.processRefreshTokenResponse(as, app, await refresh(token));

  it('when a refresh token is used, then it rotates; when the old one comes back after the pair it gave was used, then the whole grant is revoked', async () => {
    const first = await approveAndExchange(server, as, app, acme.companyId);
    const second = await refreshed(first.refresh_token!);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second).toMatchObject({ company_id: acme.companyId, company_name: 'Acme Comércio Ltda' });
    const third = await refreshed(second.refresh_token!);
    const api = server.apiWithToken(third.access_token);
    expect((await api.GET('/statements/v1/banking', {})).response.status).toBe(200);

    // Within the retry grace, but the pair it gave (second) was used: reuse.
    expect(await tokenError(await refresh(first.refresh_token!))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    // The rotated refresh token and the access tokens of the grant are revoked with it.
    expect(await tokenError(await refresh(third.refresh_token!))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await api.GET('/statements/v1/banking', {})).response.status).toBe(401);
  });

  it('when a refresh is retried within 60 seconds (its answer lost), then it gets the same pair, which works; alone or racing, the grant stands', async () => {
    const first = await approveAndExchange(server, as, app, acme.companyId);
    const [a, b] = await Promise.all([refresh(first.refresh_token!), refresh(first.refresh_token!)]);
    const [one, two] = [
      await oauth.processRefreshTokenResponse(as, app, a),
      await oauth.processRefreshTokenResponse(as, app, b),
    ];
    expect(two.access_token).toBe(one.access_token);
    expect(two.refresh_token).toBe(one.refresh_token);
    server.clock.advance(59_000);
    const again = await refreshed(first.refresh_token!);
    expect([again.access_token, again.refresh_token]).toEqual([one.access_token, one.refresh_token]);
    expect(again.expires_in).toBeLessThanOrEqual(1800 - 59);
    expect(again.scope).toBe(one.scope);
    expect((await server.apiWithToken(again.access_token).GET('/statements/v1/banking', {})).response.status).toBe(200);
    const next = await refreshed(again.refresh_token!);
    expect((await server.apiWithToken(next.access_token).GET('/statements/v1/banking', {})).response.status).toBe(200);
  });

  it('when a used refresh token comes back after the 60-second grace, then the grant is revoked', async () => {
    const first = await approveAndExchange(server, as, app, acme.companyId);
    const second = await refreshed(first.refresh_token!);
    server.clock.advance(61_000);
    expect(await tokenError(await refresh(first.refresh_token!))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await tokenError(await refresh(second.refresh_token!))).toMatchObject({ status: 400 });
    expect((await server.apiWithToken(second.access_token).GET('/statements/v1/banking', {})).response.status).toBe(
      401,
    );
  });

  it('when a refresh asks for fewer scopes, then the access token carries only those; more is invalid_scope', async () => {
    const first = await approveAndExchange(server, as, app, acme.companyId);
    const narrow = await oauth.refreshTokenGrantRequest(as, app, oauth.None(), first.refresh_token!, {
      ...insecure,
      additionalParameters: { scope: 'statements:read' },
    });
    const second = await oauth.processRefreshTokenResponse(as, app, narrow);
    expect(second.scope).toBe('statements:read');
    const wider = await oauth.refreshTokenGrantRequest(as, app, oauth.None(), second.refresh_token!, {
      ...insecure,
      additionalParameters: { scope: 'directory:read' },
    });
    expect(await tokenError(wider)).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });
});

describe('revokeOAuthToken (RFC 7009)', () => {
  it('when the app revokes its refresh token, then the grant ends: refresh and access tokens stop', async () => {
    const tokens = await approveAndExchange(server, as, app, acme.companyId);
    const res = await oauth.revocationRequest(as, app, oauth.None(), tokens.refresh_token!, insecure);
    await oauth.processRevocationResponse(res);
    expect((await server.apiWithToken(tokens.access_token).GET('/statements/v1/banking', {})).response.status).toBe(
      401,
    );
    const refresh = await oauth.refreshTokenGrantRequest(as, app, oauth.None(), tokens.refresh_token!, insecure);
    expect(refresh.status).toBe(400);
  });

  it('when the app revokes an access token, then that token stops and the refresh token still works', async () => {
    const tokens = await approveAndExchange(server, as, app, acme.companyId);
    const res = await oauth.revocationRequest(as, app, oauth.None(), tokens.access_token, {
      ...insecure,
      additionalParameters: { token_type_hint: 'access_token' },
    });
    await oauth.processRevocationResponse(res);
    expect((await server.apiWithToken(tokens.access_token).GET('/statements/v1/banking', {})).response.status).toBe(
      401,
    );
    const refreshed = await oauth.refreshTokenGrantRequest(as, app, oauth.None(), tokens.refresh_token!, insecure);
    expect(refreshed.status).toBe(200);
  });

  it('when another app or an unknown token is revoked, then the answer is 200 and the token still works', async () => {
    const tokens = await approveAndExchange(server, as, app, acme.companyId);
    const other = await registerPublicApp(as, { client_name: 'Other app' });
    const res = await oauth.revocationRequest(as, other, oauth.None(), tokens.refresh_token!, insecure);
    expect(res.status).toBe(200);
    expect((await oauth.revocationRequest(as, app, oauth.None(), 'rt_unknown', insecure)).status).toBe(200);
    expect((await server.apiWithToken(tokens.access_token).GET('/statements/v1/banking', {})).response.status).toBe(
      200,
    );
    const unknownClient = await fetch(`${server.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token!, client_id: 'app_000000000000000000000000' }),
    });
    expect(await tokenError(unknownClient)).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });
});

describe('redirect URIs', () => {
  const exchange = (code: string, verifier: string, fields: Record<string, string>) =>
    fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, ...fields }),
    });
  /** Approves the request at `url` and answers the redirect it sent the browser to. */
  const approved = async (url: URL) => {
    const answer = await decide(
      server.baseUrl,
      await openConsent(url),
      'approve',
      await approvalCodeFromCli(server, acme.companyId),
    );
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get('location')!);
  };

  it('when the authorization request names no redirect_uri (the app registered one), then it is approved and the token request may omit it; a request that named it must repeat it', async () => {
    const started = await authorizeUrl(as, app);
    const url = new URL(started.url);
    url.searchParams.delete('redirect_uri');
    expect((await openConsent(url)).fields.redirect_uri).toBeUndefined();
    const location = await approved(url);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    const ok = await exchange(location.searchParams.get('code')!, started.verifier, { client_id: app.client_id });
    expect(ok.status).toBe(200);

    const named = await authorizeUrl(as, app);
    const code = (await approved(named.url)).searchParams.get('code')!;
    const omitted = await exchange(code, named.verifier, { client_id: app.client_id });
    expect(await tokenError(omitted)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const repeated = await exchange(code, named.verifier, { client_id: app.client_id, redirect_uri: REDIRECT });
    expect(repeated.status).toBe(200);
  });

  it('when a loopback IP redirect is registered, then the request may name any port of it, and the code is bound to that port', async () => {
    const port = 'http://127.0.0.1:51234/callback';
    const started = await authorizeUrl(as, app, { redirect_uri: port });
    const page = await openConsent(started.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:51234");
    const location = await approved(started.url);
    expect(`${location.origin}${location.pathname}`).toBe(port);
    const code = location.searchParams.get('code')!;
    const other = await exchange(code, started.verifier, { client_id: app.client_id, redirect_uri: REDIRECT });
    expect(await tokenError(other)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await exchange(code, started.verifier, { client_id: app.client_id, redirect_uri: port })).status).toBe(200);

    const named = await registerPublicApp(as, { redirect_uris: ['http://localhost:9000/cb', 'http://[::1]:9000/cb'] });
    for (const [client, uri, status] of [
      [named, 'http://[::1]:9001/cb', 200],
      [named, 'http://localhost:9001/cb', 400],
      [app, 'http://127.0.0.1:51234/callback/x', 400],
      [app, 'https://127.0.0.1:51234/callback', 400],
      [app, 'http://127.0.0.2:51234/callback', 400],
    ] as const)
      expect((await openConsent((await authorizeUrl(as, client, { redirect_uri: uri })).url)).status, uri).toBe(status);
  });
});

describe('audit of refused app token requests', () => {
  it('when an app presents a wrong verifier, then a used code, then the company’s log names each refusal and the replay’s revocation with the address and request id', async () => {
    const started = await authorizeUrl(as, app);
    const answer = await decide(
      server.baseUrl,
      await openConsent(started.url),
      'approve',
      await approvalCodeFromCli(server, acme.companyId),
    );
    const callback = oauth.validateAuthResponse(as, app, new URL(answer.headers.get('location')!), started.state);
    const exchange = (verifier: string) =>
      oauth.authorizationCodeGrantRequest(as, app, oauth.None(), callback, REDIRECT, verifier, insecure);
    const wrong = await exchange(oauth.generateRandomCodeVerifier());
    expect(wrong.status).toBe(400);
    await oauth.processAuthorizationCodeResponse(as, app, await exchange(started.verifier));
    const replay = await exchange(started.verifier);
    expect(replay.status).toBe(400);

    const { data } = await acme.api.GET('/audit/v1/entries', {
      params: { query: { actions: ['token.refused', 'app.revoked'], limit: 100 } },
    });
    const of = (res: Response) => data!.items.filter((e) => e.requestId === res.headers.get('x-request-id'));
    expect(of(wrong)).toMatchObject([
      { action: 'token.refused', actor: app.client_id, ip: '127.0.0.1', details: { reason: 'pkce_mismatch' } },
    ]);
    const grantId = (of(wrong)[0]!.details as { grantId: string }).grantId;
    expect(grantId).toMatch(/^grt_/);
    expect(of(replay).sort((a, b) => a.action.localeCompare(b.action))).toMatchObject([
      {
        action: 'app.revoked',
        actor: 'system',
        target: grantId,
        ip: '127.0.0.1',
        details: { reason: 'an authorization code came back after it was used' },
      },
      { action: 'token.refused', actor: app.client_id, ip: '127.0.0.1', details: { reason: 'code_reused', grantId } },
    ]);
  });
});
