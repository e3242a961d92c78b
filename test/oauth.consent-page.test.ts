// The consent page as a browser meets it: what it names (the service, the app, the company the
// approval code is for, each scope in plain words), its headers (CSP, no framing, no caching),
// requests that must never redirect (an unregistered redirect, no PKCE, and every other invalid
// request: no open redirector), CSRF and the throttle on wrong approval codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as oauth from 'oauth4webapi';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  approvalCodeFromCli,
  authorizeUrl,
  decide,
  discover,
  openConsent,
  readConsent,
  registerPublicApp,
} from './support/oauth-flow.js';
import { ALL_SCOPES, FIRST_PARTY_SCOPES } from '../server/areas/auth/public.js';
import { SCOPE_WORDS } from '../server/areas/apps/scope-words.js';

let server: TestServer;
let acme: TestCompany;
let as: oauth.AuthorizationServer;
let app: oauth.Client;

beforeAll(async () => {
  server = await startTestServer({ config: { authFailuresPerMinute: 5, authSourceFailuresPerMinute: 5 } });
  acme = await server.newCompany({ name: 'Acme <Comércio> Ltda' });
  as = await discover(server);
  app = await registerPublicApp(as, { client_name: 'Ledgerly <Accounting> & Co' });
});
afterAll(async () => server.close());

describe('consent page', () => {
  it('when it is opened, then it names the service, the app (escaped), the redirect host and each scope in plain words, with a strict CSP and no framing', async () => {
    const forApps = ALL_SCOPES.filter((s) => !FIRST_PARTY_SCOPES.includes(s));
    const page = await openConsent((await authorizeUrl(as, app, { scope: forApps.join(' ') })).url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toContain('Company Finance Service');
    expect(page.html).toContain('Ledgerly &lt;Accounting&gt; &amp; Co');
    expect(page.html).not.toContain('<Accounting>');
    expect(page.html).toContain('Annotate and reconcile your statement transactions');
    for (const scope of forApps) {
      expect(SCOPE_WORDS[scope].length, scope).toBeGreaterThan(scope.length);
      expect(page.html, scope).toContain(`<li>${SCOPE_WORDS[scope]} <span class="small">(<code>${scope}</code>)`);
    }
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

  it('when a self-registered app with an https redirect sends any other invalid request, then an error page answers and nothing is redirected', async () => {
    const phish = await registerPublicApp(as, { client_name: 'Phish', redirect_uris: ['https://phish.example/cb'] });
    const cases: [Record<string, string>, string][] = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'everything' }, 'invalid_scope'],
      [{ scope: 'statements:read clients:manage' }, 'invalid_scope'],
      [{ resource: 'https://other.example' }, 'invalid_target'],
    ];
    for (const [params, error] of cases) {
      const page = await openConsent(
        (await authorizeUrl(as, phish, { redirect_uri: 'https://phish.example/cb', ...params })).url,
      );
      expect(page.status, error).toBe(400);
      expect(page.headers.get('location'), error).toBeNull();
      expect(page.html, error).toContain(error);
      expect(page.html).not.toContain('phish.example');
    }
  });

  it('when the administrator continues with an approval code, then the page names the company and the scopes within its ceiling, and approving from it sends the code', async () => {
    const page = await openConsent((await authorizeUrl(as, app)).url);
    const code = await approvalCodeFromCli(server, acme.companyId, 'statements:read');
    const review = await readConsent(await decide(server.baseUrl, page, 'review', code), page.cookie);
    expect(review.status).toBe(200);
    expect(review.headers.get('location')).toBeNull();
    expect(review.html).toContain('Acme &lt;Comércio&gt; Ltda');
    expect(review.html).toContain('Company Finance Service');
    expect(review.html).toContain('<code>statements:read</code>');
    expect(review.html).not.toContain('<code>statements:write</code>');
    expect(review.fields.approval_code).toBe(code);
    // Reviewing did not spend the code; approving from the review page does.
    const approved = await decide(server.baseUrl, review, 'approve');
    expect(approved.status).toBe(302);
    expect(new URL(approved.headers.get('location')!).searchParams.get('code')).toMatch(/^ac_/);
    expect((await decide(server.baseUrl, review, 'approve')).status).toBe(400);
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
    server.clock.advance(61_000); // a window of its own, whatever the tests before counted
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
