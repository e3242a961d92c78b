// API clients through the API (clients:manage): create with narrower scopes, an address allowlist
// and an expiry; list with last use; rotate with a grace; revoke. Each change in the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { expireUnusedClients } from '../server/areas/auth/public.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ deliveries: 'manual' });
});
afterAll(async () => server.close());

type Create = { name: string; scopes: string[]; allowedIps?: string[] | null; expiresAt?: string | null };

async function tokenFor(baseUrl: string, clientId: string, secret: string, extra: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...extra },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
  });
  return { status: res.status, body: (await res.json()) as { access_token?: string; error?: string } };
}

async function create(company: TestCompany, body: Create) {
  const result = await company.api.POST('/clients/v1/clients', { body: body as never });
  return result;
}

async function created(company: TestCompany, body: Create) {
  const { data, response, error } = await create(company, body);
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!;
}

const audit = async (company: TestCompany, actions?: string[]) => {
  const { data } = await company.api.GET('/audit/v1/entries', {
    params: { query: actions ? { actions } : {} } as never,
  });
  return data!.items;
};

describe('createApiClient', () => {
  it('when created with scopes among the caller’s, then 201 with the secret once, a working client and an audit entry', async () => {
    const acme = await server.newCompany();
    const client = await created(acme, { name: 'ERP sync', scopes: ['statements:read'] });
    expect(client).toMatchObject({
      name: 'ERP sync',
      scopes: ['statements:read'],
      allowedIps: null,
      expiresAt: null,
      status: 'active',
      createdBy: acme.clientId,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(client.clientSecret).toMatch(/^sk_/);
    const token = await tokenFor(server.baseUrl, client.clientId, client.clientSecret);
    expect(token.status).toBe(200);
    const api = server.apiWithToken(token.body.access_token!);
    expect((await api.GET('/statements/v1/banking')).response.status).toBe(200);
    expect((await api.GET('/cost-centers/v1/cost-centers')).response.status).toBe(403);

    const [entry] = await audit(acme, ['api_client.created']);
    expect(entry).toMatchObject({
      action: 'api_client.created',
      actor: acme.clientId,
      target: client.clientId,
      ip: '127.0.0.1',
      createdAt: server.clock.now().toISOString(),
      details: { scopes: ['statements:read'] },
    });
    expect(JSON.stringify(await audit(acme))).not.toContain(client.clientSecret);
  });

  it('when a client asks for a scope its token does not hold, then 403: it cannot widen its own scopes', async () => {
    const acme = await server.newCompany({ scopes: ['clients:manage', 'statements:read', 'audit:read'] });
    const wider = await create(acme, { name: 'wider', scopes: ['statements:read', 'vcn:reveal'] });
    expect(wider.response.status).toBe(403);
    expect(wider.error).toMatchObject({ message: expect.stringContaining('vcn:reveal') });
    // Nor through a client it made: that client holds no more than its maker.
    const child = await created(acme, { name: 'child', scopes: ['clients:manage', 'statements:read'] });
    const token = await tokenFor(server.baseUrl, child.clientId, child.clientSecret);
    const childApi = server.apiWithToken(token.body.access_token!);
    const grand = await childApi.POST('/clients/v1/clients', { body: { name: 'g', scopes: ['audit:read'] } });
    expect(grand.response.status).toBe(403);
    // And a token asking for more than its client holds is refused, and recorded.
    const asked = await tokenFor(server.baseUrl, child.clientId, child.clientSecret);
    expect(asked.status).toBe(200);
    const res = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: child.clientId,
        client_secret: child.clientSecret,
        scope: 'statements:read vcn:reveal',
      }),
    });
    expect(res.status).toBe(400);
    const [refused] = await audit(acme, ['token.refused']);
    expect(refused).toMatchObject({
      actor: child.clientId,
      details: { reason: 'scope_not_granted', scopes: ['vcn:reveal'] },
    });
  });

  it('when allowedIps or expiresAt are not acceptable, then 400 with the error body and nothing created', async () => {
    const acme = await server.newCompany();
    const bad = await create(acme, { name: 'x', scopes: ['statements:read'], allowedIps: ['10.0.0.0/8', 'not-an-ip'] });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ reason: 'invalid_value', param: 'allowedIps', requestId: expect.any(String) });
    const empty = await create(acme, { name: 'x', scopes: ['statements:read'], allowedIps: [] });
    expect(empty.response.status).toBe(400);
    const past = await create(acme, { name: 'x', scopes: ['statements:read'], expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.response.status).toBe(400);
    expect(past.error).toMatchObject({ param: 'expiresAt' });
    const unknownScope = await create(acme, { name: 'x', scopes: ['everything:write'] });
    expect(unknownScope.response.status).toBe(400);
    const { data } = await acme.api.GET('/clients/v1/clients');
    expect(data?.items.map((c) => c.clientId)).toEqual([acme.clientId]);
  });

  it('when the client has allowedIps, then it gets a token only from those addresses; a refusal is audited', async () => {
    const acme = await server.newCompany();
    const local = await created(acme, { name: 'local', scopes: ['statements:read'], allowedIps: ['127.0.0.0/8'] });
    expect(local.allowedIps).toEqual(['127.0.0.0/8']);
    expect((await tokenFor(server.baseUrl, local.clientId, local.clientSecret)).status).toBe(200);

    const remote = await created(acme, {
      name: 'office',
      scopes: ['statements:read'],
      allowedIps: ['203.0.113.7', '2001:db8::/32'],
    });
    expect(remote.allowedIps).toEqual(['203.0.113.7/32', '2001:db8::/32']);
    const refused = await tokenFor(server.baseUrl, remote.clientId, remote.clientSecret);
    expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const [entry] = await audit(acme, ['token.refused']);
    expect(entry).toMatchObject({
      actor: remote.clientId,
      target: remote.clientId,
      ip: '127.0.0.1',
      details: { reason: 'address_not_allowed' },
    });
    const { data } = await acme.api.GET('/clients/v1/clients/{clientId}', {
      params: { path: { clientId: remote.clientId } },
    });
    expect(data?.lastUsedAt).toBeNull();
  });

  it('when a token request with one of its client ids has a wrong secret, then it is audited; an unknown id is in no log', async () => {
    const acme = await server.newCompany();
    const c = await created(acme, { name: 'typo', scopes: ['statements:read'] });
    expect((await tokenFor(server.baseUrl, c.clientId, `${c.clientSecret}x`)).status).toBe(401);
    expect((await tokenFor(server.baseUrl, 'cli_000000000000000000000000', c.clientSecret)).status).toBe(401);
    const refused = await audit(acme, ['token.refused']);
    expect(refused.map((e) => [e.actor, e.details])).toEqual([[c.clientId, { reason: 'invalid_credentials' }]]);
    expect(JSON.stringify(refused)).not.toContain(c.clientSecret);
  });

  it('when the server trusts a proxy on loopback, then the allowlist reads the forwarded address', async () => {
    const proxied = await startTestServer({ deliveries: 'manual', config: { trustProxy: ['loopback'] } });
    try {
      const acme = await proxied.newCompany();
      const office = await created(acme, {
        name: 'office',
        scopes: ['statements:read'],
        allowedIps: ['203.0.113.0/24'],
      });
      const from = (address: string) =>
        tokenFor(proxied.baseUrl, office.clientId, office.clientSecret, { 'X-Forwarded-For': address });
      expect((await from('203.0.113.7')).status).toBe(200);
      expect((await from('198.51.100.1')).status).toBe(401);
      expect((await tokenFor(proxied.baseUrl, office.clientId, office.clientSecret)).status).toBe(401);
      const { data } = await acme.api.GET('/clients/v1/clients/{clientId}', {
        params: { path: { clientId: office.clientId } },
      });
      expect(data).toMatchObject({ lastUsedIp: '203.0.113.7', lastUsedAt: proxied.clock.now().toISOString() });
    } finally {
      await proxied.close();
    }
  });

  it('when expiresAt passes, then the client gets no token and its tokens end then', async () => {
    const acme = await server.newCompany();
    const inTenMinutes = new Date(server.clock.now().getTime() + 600_000).toISOString();
    const brief = await created(acme, { name: 'brief', scopes: ['statements:read'], expiresAt: inTenMinutes });
    const token = await tokenFor(server.baseUrl, brief.clientId, brief.clientSecret);
    expect(token.status).toBe(200);
    expect((token.body as { expires_in?: number }).expires_in).toBe(600);
    server.clock.advance(600_000);
    expect((await tokenFor(server.baseUrl, brief.clientId, brief.clientSecret)).status).toBe(401);
    const api = server.apiWithToken(token.body.access_token!);
    expect((await api.GET('/statements/v1/banking')).response.status).toBe(401);
    const [refused] = await audit(await refreshed(acme), ['token.refused']);
    expect(refused).toMatchObject({ actor: brief.clientId, details: { reason: 'client_expired' } });
    const { data } = await (await refreshed(acme)).api.GET('/clients/v1/clients/{clientId}', {
      params: { path: { clientId: brief.clientId } },
    });
    expect(data?.status).toBe('expired');
  });
});

describe('listApiClients', () => {
  it('when clients were created and used, then listed oldest first with lastUsedAt, lastUsedIp and createdBy, never a secret', async () => {
    const acme = await server.newCompany();
    server.clock.advance(1000);
    const a = await created(acme, { name: 'a', scopes: ['statements:read'] });
    server.clock.advance(1000);
    const b = await created(acme, { name: 'b', scopes: ['statements:read'] });
    server.clock.advance(1000);
    await tokenFor(server.baseUrl, b.clientId, b.clientSecret);
    const first = await acme.api.GET('/clients/v1/clients', { params: { query: { limit: 2 } } });
    expect(first.data?.items.map((c) => c.clientId)).toEqual([acme.clientId, a.clientId]);
    const second = await acme.api.GET('/clients/v1/clients', {
      params: { query: { limit: 2, nextPageStartKey: first.data!.nextPageStartKey! } },
    });
    expect(second.data?.items).toEqual([
      expect.objectContaining({
        clientId: b.clientId,
        name: 'b',
        createdBy: acme.clientId,
        lastUsedAt: server.clock.now().toISOString(),
        lastUsedIp: '127.0.0.1',
      }),
    ]);
    expect(second.data?.nextPageStartKey).toBeUndefined();
    const text = JSON.stringify([first.data, second.data]);
    expect(text).not.toContain(b.clientSecret);
    expect(text).not.toContain('clientSecret');
  });

  it('when another company lists, then it sees only its own clients, and another company’s client is 404', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const mine = await created(acme, { name: 'mine', scopes: ['statements:read'] });
    const { data } = await globex.api.GET('/clients/v1/clients');
    expect(data?.items.map((c) => c.clientId)).toEqual([globex.clientId]);
    const path = { params: { path: { clientId: mine.clientId } } };
    expect((await globex.api.GET('/clients/v1/clients/{clientId}', path)).response.status).toBe(404);
    expect((await globex.api.DELETE('/clients/v1/clients/{clientId}', path)).response.status).toBe(404);
    expect((await globex.api.POST('/clients/v1/clients/{clientId}/rotate-secret', path)).response.status).toBe(404);
    expect((await tokenFor(server.baseUrl, mine.clientId, mine.clientSecret)).status).toBe(200);
    expect((await audit(globex)).length).toBe(0);
  });

  it('when the token lacks clients:manage, then 403', async () => {
    const narrow = await server.newCompany({ scopes: ['statements:read'] });
    expect((await narrow.api.GET('/clients/v1/clients')).response.status).toBe(403);
  });
});

describe('getApiClient', () => {
  it('when the client is the company’s, then its public shape; an unknown id is 404', async () => {
    const acme = await server.newCompany();
    const c = await created(acme, { name: 'one', scopes: ['directory:read'] });
    const { data } = await acme.api.GET('/clients/v1/clients/{clientId}', {
      params: { path: { clientId: c.clientId } },
    });
    expect(data).toMatchObject({ clientId: c.clientId, name: 'one', scopes: ['directory:read'], status: 'active' });
    expect(data).not.toHaveProperty('clientSecret');
    const missing = await acme.api.GET('/clients/v1/clients/{clientId}', {
      params: { path: { clientId: 'cli_000000000000000000000000' } },
    });
    expect(missing.response.status).toBe(404);
  });
});

describe('deleteApiClient', () => {
  it('when deleted, then its tokens stop at once, it gets no new one, it is listed as revoked, and the log says who', async () => {
    const acme = await server.newCompany();
    const c = await created(acme, { name: 'gone', scopes: ['statements:read'] });
    const token = await tokenFor(server.baseUrl, c.clientId, c.clientSecret);
    const api = server.apiWithToken(token.body.access_token!);
    expect((await api.GET('/statements/v1/banking')).response.status).toBe(200);
    const path = { params: { path: { clientId: c.clientId } } };
    expect((await acme.api.DELETE('/clients/v1/clients/{clientId}', path)).response.status).toBe(204);
    expect((await api.GET('/statements/v1/banking')).response.status).toBe(401);
    expect((await tokenFor(server.baseUrl, c.clientId, c.clientSecret)).status).toBe(401);
    const { data } = await acme.api.GET('/clients/v1/clients/{clientId}', path);
    expect(data).toMatchObject({ status: 'revoked', revokedAt: server.clock.now().toISOString() });
    // Again: nothing changes, nothing more is recorded.
    expect((await acme.api.DELETE('/clients/v1/clients/{clientId}', path)).response.status).toBe(204);
    const revoked = await audit(acme, ['api_client.revoked']);
    expect(revoked).toEqual([
      expect.objectContaining({
        actor: acme.clientId,
        target: c.clientId,
        createdAt: server.clock.now().toISOString(),
      }),
    ]);
    const refused = await audit(acme, ['token.refused']);
    expect(refused[0]).toMatchObject({ actor: c.clientId, details: { reason: 'client_revoked' } });
  });

  it('when the client holds scopes the caller does not, then 403 and it keeps working', async () => {
    const acme = await server.newCompany();
    const admin = await created(acme, { name: 'admin', scopes: ['clients:manage', 'statements:read'] });
    const adminToken = await tokenFor(server.baseUrl, admin.clientId, admin.clientSecret);
    const adminApi = server.apiWithToken(adminToken.body.access_token!);
    const path = { params: { path: { clientId: acme.clientId } } };
    expect((await adminApi.DELETE('/clients/v1/clients/{clientId}', path)).response.status).toBe(403);
    expect((await adminApi.POST('/clients/v1/clients/{clientId}/rotate-secret', path)).response.status).toBe(403);
    expect((await acme.api.GET('/clients/v1/clients')).response.status).toBe(200);
  });
});

describe('rotateApiClientSecret', () => {
  it('when rotated with a grace, then both secrets work until it ends, then only the new one; the log records it', async () => {
    const acme = await server.newCompany();
    const c = await created(acme, { name: 'rotating', scopes: ['statements:read'] });
    const path = { params: { path: { clientId: c.clientId } } };
    const rotated = await acme.api.POST('/clients/v1/clients/{clientId}/rotate-secret', {
      ...path,
      body: { graceSeconds: 3600 },
    });
    expect(rotated.response.status).toBe(200);
    const fresh = rotated.data!.clientSecret;
    expect(fresh).not.toBe(c.clientSecret);
    expect(rotated.data?.previousSecretExpiresAt).toBe(
      new Date(server.clock.now().getTime() + 3_600_000).toISOString(),
    );
    expect((await tokenFor(server.baseUrl, c.clientId, c.clientSecret)).status).toBe(200);
    expect((await tokenFor(server.baseUrl, c.clientId, fresh)).status).toBe(200);
    server.clock.advance(3_600_000);
    expect((await tokenFor(server.baseUrl, c.clientId, c.clientSecret)).status).toBe(401);
    expect((await tokenFor(server.baseUrl, c.clientId, fresh)).status).toBe(200);
    const [entry] = await audit(await refreshed(acme), ['api_client.secret_rotated']);
    expect(entry).toMatchObject({
      actor: acme.clientId,
      target: c.clientId,
      details: { graceEndsAt: expect.any(String) },
    });
    expect(JSON.stringify(entry)).not.toContain(fresh);
  });

  it('when rotated without a grace, then the old secret and its tokens stop at once; a revoked client is 409', async () => {
    const acme = await server.newCompany();
    const c = await created(acme, { name: 'rotating', scopes: ['statements:read'] });
    const old = await tokenFor(server.baseUrl, c.clientId, c.clientSecret);
    const path = { params: { path: { clientId: c.clientId } } };
    const rotated = await acme.api.POST('/clients/v1/clients/{clientId}/rotate-secret', path);
    expect(rotated.response.status).toBe(200);
    expect(rotated.data?.previousSecretExpiresAt).toBeNull();
    expect((await server.apiWithToken(old.body.access_token!).GET('/statements/v1/banking')).response.status).toBe(401);
    expect((await tokenFor(server.baseUrl, c.clientId, c.clientSecret)).status).toBe(401);
    await acme.api.DELETE('/clients/v1/clients/{clientId}', path);
    expect((await acme.api.POST('/clients/v1/clients/{clientId}/rotate-secret', path)).response.status).toBe(409);
  });
});

describe('expireUnusedClients', () => {
  it('when a client is unused for the configured days, then the worker revokes it as `system`; a used one stays', async () => {
    const acme = await server.newCompany();
    const idle = await created(acme, { name: 'idle', scopes: ['statements:read'] });
    const busy = await created(acme, { name: 'busy', scopes: ['statements:read'] });
    server.clock.advance(29 * 86_400_000);
    expect((await tokenFor(server.baseUrl, busy.clientId, busy.clientSecret)).status).toBe(200);
    server.clock.advance(2 * 86_400_000);
    // Only this company's clients matter here; other tests' clients are older and unused too.
    await expireUnusedClients(server.db, server.clock, 30);
    expect((await tokenFor(server.baseUrl, idle.clientId, idle.clientSecret)).status).toBe(401);
    expect((await tokenFor(server.baseUrl, busy.clientId, busy.clientSecret)).status).toBe(200);
    const company = await server.newCompany();
    expect((await audit(company)).length).toBe(0);
    const entries = await server.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('company_id', '=', acme.companyId)
      .where('action', '=', 'api_client.expired')
      .execute();
    expect(entries.map((e) => [e.actor, e.target])).toEqual(
      expect.arrayContaining([
        ['system', idle.clientId],
        ['system', acme.clientId],
      ]),
    );
    expect(entries.map((e) => e.target)).not.toContain(busy.clientId);
  });
});

/** The company with a fresh token (its clock moved past the old one's expiry). */
async function refreshed(company: TestCompany): Promise<TestCompany> {
  const token = await tokenFor(server.baseUrl, company.clientId, company.clientSecret);
  return { ...company, token: token.body.access_token!, api: server.apiWithToken(token.body.access_token!) };
}
