// The consent page as a browser meets it: what it names, its headers (CSP, no framing, no caching),
// requests that must never redirect (unregistered redirect, no PKCE), open redirects, CSRF and the
// throttle on wrong approval codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as oauth from 'oauth4webapi';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  approvalCodeFromCli,
  authorizeUrl,
  decide,
  discover,
  openConsent,
  registerPublicApp,
} from './support/oauth-flow.js';

let server: TestServer;
let acme: TestCompany;
let as: oauth.AuthorizationServer;
let app: oauth.Client;

beforeAll(async () => {
  server = await startTestServer({ config: { authFailuresPerMinute: 5, authSourceFailuresPerMinute: 5 } });
  acme = await server.newCompany();
  as = await discover(server);
  app = await registerPublicApp(as, { client_name: 'Ledgerly <Accounting> & Co' });
});
afterAll(async () => server.close());

describe('consent page', () => {
  it('when it is opened, then it names the app (escaped), the redirect host and each scope in plain words, with a strict CSP and no framing', async () => {
    const page = await openConsent((await authorizeUrl(as, app)).url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toContain('Ledgerly &lt;Accounting&gt; &amp; Co');
    expect(page.html).not.toContain('<Accounting>');
    expect(page.html).toContain('Annotate and reconcile your statement transactions');
    expect(page.html).toContain('<code>statements:write</code>');
    expect(page.html).not.toMatch(/<script/i);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("form-action 'self' http://127.0.0.1:8765");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.cookie).toMatch(/^consent_csrf=/);
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
  });

  it('when the redirect_uri is not registered, then an error page answers and nothing is redirected', async () => {
    for (const redirect of [
      'https://evil.example/cb',
      'http://127.0.0.1:8765/callback/../evil',
      'http://127.0.0.1:8765/callback?x=1',
    ]) {
      const page = await openConsent((await authorizeUrl(as, app, { redirect_uri: redirect })).url);
      expect(page.status, redirect).toBe(400);
      expect(page.headers.get('location')).toBeNull();
      expect(page.html).toContain('is not one the app registered');
    }
    const unknownClient = await openConsent(
      (await authorizeUrl(as, { client_id: 'app_ffffffffffffffffffffffff' })).url,
    );
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.headers.get('location')).toBeNull();
  });

  it('when code_challenge is missing or plain, then an error page answers and nothing is redirected', async () => {
    const started = await authorizeUrl(as, app);
    const url = new URL(started.url);
    url.searchParams.delete('code_challenge');
    const missing = await openConsent(url);
    expect(missing.status).toBe(400);
    expect(missing.headers.get('location')).toBeNull();
    expect(missing.html).toContain('PKCE');
    const plain = await openConsent((await authorizeUrl(as, app, { code_challenge_method: 'plain' })).url);
    expect(plain.status).toBe(400);
    expect(plain.headers.get('location')).toBeNull();
  });

  it('when the client and redirect are right but the scope or response type is not, then the error goes to the registered redirect only', async () => {
    const scope = await openConsent((await authorizeUrl(as, app, { scope: 'everything' })).url);
    expect(scope.status).toBe(302);
    const location = new URL(scope.headers.get('location')!);
    expect(location.origin).toBe('http://127.0.0.1:8765');
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    const type = await openConsent((await authorizeUrl(as, app, { response_type: 'token' })).url);
    expect(new URL(type.headers.get('location')!).searchParams.get('error')).toBe('unsupported_response_type');
    const target = await openConsent((await authorizeUrl(as, app, { resource: 'https://other.example' })).url);
    expect(new URL(target.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
  });

  it('when the form is posted without the page’s cookie or with a tampered field, then it is refused and nothing is redirected', async () => {
    const page = await openConsent((await authorizeUrl(as, app)).url);
    const code = await approvalCodeFromCli(server, acme.companyId);
    const noCookie = await decide(server.baseUrl, { ...page, cookie: undefined }, 'approve', code);
    expect(noCookie.status).toBe(403);
    expect(noCookie.headers.get('location')).toBeNull();
    const otherRedirect = await decide(server.baseUrl, page, 'approve', code, {
      redirect_uri: 'https://evil.example/cb',
    });
    expect(otherRedirect.status).toBe(400);
    expect(otherRedirect.headers.get('location')).toBeNull();
    const otherScope = await decide(server.baseUrl, page, 'approve', code, { scope: 'statements:read vcn:reveal' });
    expect(otherScope.status).toBe(403);
    // The code was not spent by the refused posts.
    expect((await decide(server.baseUrl, page, 'approve', code)).status).toBe(302);
  });

  it('when wrong approval codes keep coming from one address, then the page answers 429 and even a right code waits', async () => {
    const page = await openConsent((await authorizeUrl(as, app)).url);
    for (let i = 0; i < 5; i++)
      expect((await decide(server.baseUrl, page, 'approve', `apv_guess${i}`)).status).toBe(400);
    const right = await approvalCodeFromCli(server, acme.companyId);
    const throttled = await decide(server.baseUrl, page, 'approve', right);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
    server.clock.advance(61_000);
    expect((await decide(server.baseUrl, page, 'approve', right)).status).toBe(302);
  });
});
