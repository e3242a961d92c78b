// Apps never hold the keys to the company: the first-party scopes (clients:manage, apps:manage,
// webhooks:write, audit:read, sandbox:write) are refused to apps wherever they could come from, even
// a grant that held them before they were, and migration 0040 takes them from what was already
// granted and revokes the API clients apps made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  approvalCodeFromCli,
  approveAndExchange,
  authorizeUrl,
  decide,
  discover,
  insecure,
  openConsent,
  registerPublicApp,
} from './support/oauth-flow.js';
import { freshDatabase } from './support/database.js';
import { openStore } from '../server/db/store.js';
import { migrate } from '../server/db/database.js';
import { migrations } from '../server/db/migrations/index.js';
import { ManualClock } from '../server/lib/clock.js';
import { createClient, createCompany } from '../server/areas/auth/store.js';
import { quickHash } from './support/secrets.js';

let server: TestServer;
let acme: TestCompany;
let as: oauth.AuthorizationServer;
let app: oauth.Client;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  as = await discover(server);
  app = await registerPublicApp(as);
});
afterAll(async () => server.close());

/** What a grant approved before the scopes were first-party holds: written as it was stored then. */
const grantHeld = (scopes: string) => server.db.updateTable('oauth_grants').set({ scopes }).execute();

describe('first-party scopes and apps', () => {
  it('when an app asks for clients:manage apps:manage, then the consent page refuses it; a grant that held them gives neither, and the app cannot mint a client', async () => {
    const asked = await openConsent(
      (await authorizeUrl(as, app, { scope: 'statements:read clients:manage apps:manage' })).url,
    );
    expect(asked.status).toBe(400);
    expect(asked.html).toContain('clients:manage apps:manage');

    // A code of a grant that held them: the exchange leaves them out.
    const started = await authorizeUrl(as, app, { scope: 'statements:read' });
    const answer = await decide(
      server.baseUrl,
      await openConsent(started.url),
      'approve',
      await approvalCodeFromCli(server, acme.companyId),
    );
    await grantHeld('statements:read clients:manage apps:manage');
    const callback = oauth.validateAuthResponse(as, app, new URL(answer.headers.get('location')!), started.state);
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      app,
      oauth.None(),
      callback,
      started.url.searchParams.get('redirect_uri')!,
      started.verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, app, res);
    expect(tokens.scope).toBe('statements:read');
    const appApi = server.apiWithToken(tokens.access_token);
    const minted = await appApi.POST('/clients/v1/clients', {
      body: { name: 'backdoor', scopes: ['statements:read'] },
    });
    expect(minted.response.status).toBe(403);
    expect((await appApi.POST('/apps/v1/approval-codes', {})).response.status).toBe(403);
    expect((await appApi.GET('/apps/v1/grants', {})).response.status).toBe(403);

    // A refresh: the same, and asking for one by name is invalid_scope.
    const asking = await oauth.refreshTokenGrantRequest(as, app, oauth.None(), tokens.refresh_token!, {
      ...insecure,
      additionalParameters: { scope: 'clients:manage' },
    });
    expect(asking.status).toBe(400);
    expect(((await asking.json()) as { error: string }).error).toBe('invalid_scope');
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      app,
      await oauth.refreshTokenGrantRequest(as, app, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect(refreshed.scope).toBe('statements:read');
    const clients = await acme.api.GET('/clients/v1/clients', {});
    expect(clients.data!.items.map((c) => c.createdBy)).not.toContain(app.client_id);
  });

  it('when a grant held only first-party scopes, then a refresh is invalid_scope and gives nothing', async () => {
    const tokens = await approveAndExchange(server, as, app, acme.companyId, { scope: 'statements:read' });
    await grantHeld('apps:manage');
    const res = await oauth.refreshTokenGrantRequest(as, app, oauth.None(), tokens.refresh_token!, insecure);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_scope');
  });
});

describe('migration 0040', () => {
  it('when a store holds app grants and tokens with first-party scopes and clients an app made, then migrating takes the scopes, revokes what is left with none and the clients, and says so in the audit log', async () => {
    const store = await openStore(await freshDatabase(), { migrate: false });
    try {
      const { db } = store;
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0040'));
      await migrate(db, before);
      const clock = new ManualClock();
      const companyId = await createCompany(db, clock, { name: 'Before Ltda' });
      const now = clock.now();
      const later = new Date(now.getTime() + 1800_000).toISOString();
      await db
        .insertInto('oauth_apps')
        .values({
          id: 'app_000000000000000000000001',
          name: 'Old app',
          redirect_uris: '["http://127.0.0.1:8765/callback"]',
          auth_method: 'none',
          secret_hash: null,
          scope: null,
          created_at: now.toISOString(),
          unused_expires_at: null,
        })
        .execute();
      const grant = (id: string, scopes: string) => ({
        id,
        company_id: companyId,
        app_id: 'app_000000000000000000000001',
        scopes,
        resource: null,
        created_at: now.toISOString(),
        last_used_at: null,
        revoked_at: null,
      });
      await db
        .insertInto('oauth_grants')
        .values([grant('grt_mixed', 'statements:read clients:manage apps:manage'), grant('grt_keys', 'audit:read')])
        .execute();
      const token = (hash: string, grantId: string, scopes: string) => ({
        token_hash: hash,
        grant_id: grantId,
        app_id: 'app_000000000000000000000001',
        company_id: companyId,
        scopes,
        created_at: now.toISOString(),
        expires_at: later,
        revoked_at: null,
      });
      await db
        .insertInto('grant_access_tokens')
        .values([
          token('mixed', 'grt_mixed', 'statements:read clients:manage'),
          token('keys', 'grt_keys', 'audit:read'),
        ])
        .execute();
      const made = await createClient(
        db,
        clock,
        { companyId, scopes: ['statements:read'] },
        { actor: 'app_000000000000000000000001' },
        quickHash,
      );
      const own = await createClient(
        db,
        clock,
        { companyId, scopes: ['statements:read'] },
        { actor: 'cli' },
        quickHash,
      );

      expect(await migrate(db)).toContain('0040_app_scopes');

      const grants = await db.selectFrom('oauth_grants').select(['id', 'scopes', 'revoked_at']).orderBy('id').execute();
      expect(grants.map((g) => [g.id, g.scopes, g.revoked_at !== null])).toEqual([
        ['grt_keys', 'audit:read', true],
        ['grt_mixed', 'statements:read', false],
      ]);
      const tokens = await db
        .selectFrom('grant_access_tokens')
        .select(['token_hash', 'scopes', 'revoked_at'])
        .execute();
      expect(tokens.find((t) => t.token_hash === 'mixed')).toMatchObject({
        scopes: 'statements:read',
        revoked_at: null,
      });
      expect(tokens.find((t) => t.token_hash === 'keys')?.revoked_at).not.toBeNull();
      const clients = await db.selectFrom('api_clients').select(['id', 'revoked_at']).execute();
      expect(clients.find((c) => c.id === made.clientId)?.revoked_at).not.toBeNull();
      expect(clients.find((c) => c.id === own.clientId)?.revoked_at).toBeNull();
      const audit = await db
        .selectFrom('audit_entries')
        .selectAll()
        .where('action', '=', 'api_client.revoked')
        .execute();
      expect(audit).toMatchObject([{ actor: 'system', target: made.clientId, company_id: companyId }]);
    } finally {
      await store.close();
    }
  });
});
