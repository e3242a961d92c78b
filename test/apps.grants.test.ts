// The company's side of apps: approval codes through the API, the list of approved apps, revoking
// one (its tokens stop at once), other companies kept apart, and /mcp reached with an app's token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  approveAndExchange,
  authorizeUrl,
  decide,
  discover,
  insecure,
  openConsent,
  registerPublicApp,
} from './support/oauth-flow.js';
import { connected } from './support/mcp.js';

let server: TestServer;
let acme: TestCompany;
let globex: TestCompany;
let as: oauth.AuthorizationServer;
let app: oauth.Client;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  globex = await server.newCompany();
  as = await discover(server);
  app = await registerPublicApp(as);
});
afterAll(async () => server.close());

describe('createApprovalCode', () => {
  it('when an administrator asks, then a one-time code is shown once and approves the app for that company', async () => {
    const { data, response } = await acme.api.POST('/apps/v1/approval-codes', {
      body: { scopes: ['statements:read'] },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(data!.code).toMatch(/^apv_[A-Za-z0-9_-]{32}$/);
    expect(data!.scopes).toEqual(['statements:read']);
    expect(Date.parse(data!.expiresAt) - server.clock.now().getTime()).toBe(10 * 60 * 1000);
    const rows = await server.db.selectFrom('approval_codes').select('code_hash').execute();
    expect(rows.map((r) => r.code_hash)).not.toContain(data!.code);

    const started = await authorizeUrl(as, app);
    const answer = await decide(server.baseUrl, await openConsent(started.url), 'approve', data!.code);
    expect(answer.status).toBe(302);
    const again = await decide(server.baseUrl, await openConsent(started.url), 'approve', data!.code);
    expect(again.status).toBe(400);
  });

  it('when the code is older than 10 minutes, then the consent page refuses it', async () => {
    const { data } = await acme.api.POST('/apps/v1/approval-codes', {});
    server.clock.advance(10 * 60 * 1000 + 1);
    const answer = await decide(
      server.baseUrl,
      await openConsent((await authorizeUrl(as, app)).url),
      'approve',
      data!.code,
    );
    expect(answer.status).toBe(400);
  });

  it('when the ceiling names a scope the caller lacks or an unknown one, then 400; without apps:manage, 403', async () => {
    const narrow = await server.newCompany({ scopes: ['apps:manage', 'statements:read'] });
    const beyond = await narrow.api.POST('/apps/v1/approval-codes', { body: { scopes: ['vcn:reveal'] } });
    expect(beyond.response.status).toBe(400);
    const unknown = await narrow.api.POST('/apps/v1/approval-codes', { body: { scopes: ['everything'] } });
    expect(unknown.response.status).toBe(400);
    // Without a ceiling, the caller's own scopes are the ceiling.
    const own = await narrow.api.POST('/apps/v1/approval-codes', {});
    expect(own.data!.scopes!.sort()).toEqual(['apps:manage', 'statements:read']);
    const reader = await server.newCompany({ scopes: ['statements:read'] });
    expect((await reader.api.POST('/apps/v1/approval-codes', {})).response.status).toBe(403);
  });
});

describe('listGrants', () => {
  it('when a company approved an app, then it sees it with its scopes and last use; another company does not', async () => {
    await approveAndExchange(server, as, app, acme.companyId);
    const { data, response } = await acme.api.GET('/apps/v1/grants', {});
    expect(response.status).toBe(200);
    const grant = data!.items[0]!;
    expect(grant).toMatchObject({ clientId: app.client_id, appName: 'Ledgerly Accounting' });
    expect(grant.scopes).toEqual(['statements:read', 'statements:write']);
    expect(grant.lastUsedAt).not.toBeNull();
    expect((await globex.api.GET('/apps/v1/grants', {})).data!.items).toEqual([]);
  });
});

describe('deleteGrant', () => {
  it('when the company revokes an app, then its access and refresh tokens stop at once', async () => {
    server.clock.advance(1000); // this grant is the newest, first in the list
    const tokens = await approveAndExchange(server, as, app, acme.companyId);
    const appApi = server.apiWithToken(tokens.access_token);
    expect((await appApi.GET('/statements/v1/banking', {})).response.status).toBe(200);
    const grantId = (await acme.api.GET('/apps/v1/grants', {})).data!.items[0]!.id;

    // Another company cannot see or revoke it.
    const foreign = await globex.api.DELETE('/apps/v1/grants/{grantId}', { params: { path: { grantId } } });
    expect(foreign.response.status).toBe(404);
    expect((await appApi.GET('/statements/v1/banking', {})).response.status).toBe(200);

    const deleted = await acme.api.DELETE('/apps/v1/grants/{grantId}', { params: { path: { grantId } } });
    expect(deleted.response.status).toBe(204);
    const refused = await appApi.GET('/statements/v1/banking', {});
    expect(refused.response.status).toBe(401);
    expect(refused.response.headers.get('www-authenticate')).toContain('the access token was revoked');
    const refresh = await oauth.refreshTokenGrantRequest(as, app, oauth.None(), tokens.refresh_token!, insecure);
    expect(refresh.status).toBe(400);
    expect((await acme.api.GET('/apps/v1/grants', {})).data!.items.map((g) => g.id)).not.toContain(grantId);
    const twice = await acme.api.DELETE('/apps/v1/grants/{grantId}', { params: { path: { grantId } } });
    expect(twice.response.status).toBe(404);

    // The audit log: the approval, the code it used and the revocation, with who did each; the other company sees none.
    const audit = (await acme.api.GET('/audit/v1/entries', { params: { query: { limit: 100 } } })).data!.items;
    const actions = audit.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['approval_code.used', 'app.approved', 'app.revoked']));
    expect(audit.find((e) => e.action === 'app.revoked')).toMatchObject({ actor: acme.clientId, target: grantId });
    expect(audit.find((e) => e.action === 'app.approved')?.actor).toBe(app.client_id);
    const theirs = (await globex.api.GET('/audit/v1/entries', { params: { query: { limit: 100 } } })).data!.items;
    expect(theirs.filter((e) => e.action.startsWith('app.'))).toEqual([]);
  });
});

describe('/mcp with an app token', () => {
  it('when an assistant connects with a token of the code flow, then it sees the tools its grant allows and no others', async () => {
    const tokens = await approveAndExchange(server, as, app, acme.companyId, { scope: 'statements:read' });
    const client = await connected(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('list_banking_transactions');
      expect(names).not.toContain('list_cost_centers');
      const result = await client.callTool({ name: 'list_banking_transactions', arguments: {} });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
