import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestCompany } from './support/server.js';
import { contract } from '../server/contract/index.js';
import { createClient, revokeClient } from '../server/areas/auth/store.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const samplePath = (path: string) =>
  path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    /dueDate/.test(name)
      ? '2026-11-10'
      : /transactionId/.test(name) && path.includes('credit-card')
        ? '01JD3Q5W2K8Z9Y7X6V5T4S3R2Q'
        : '1',
  );

describe('authentication', () => {
  it('when any secured operation of the contract is called without a token, then 401 with WWW-Authenticate: Bearer', async () => {
    const routes = contract().operations.filter((r) => r.scopes !== undefined);
    expect(routes.length).toBeGreaterThan(30);
    const results = await Promise.all(
      routes.map(async (r) => {
        const res = await fetch(server.baseUrl + samplePath(r.path), { method: r.method, redirect: 'manual' });
        const body = (await res.json()) as { code: unknown; requestId: string };
        return {
          op: r.operationId,
          status: res.status,
          challenge: res.headers.get('www-authenticate'),
          body,
          requestId: res.headers.get('x-request-id'),
        };
      }),
    );
    for (const r of results) {
      expect(r, r.op).toMatchObject({ status: 401, challenge: expect.stringMatching(/^Bearer /) });
      expect(r.body.requestId, r.op).toBe(r.requestId);
    }
  });

  it('when the token is garbage, then 401 with error="invalid_token"', async () => {
    const { response, error } = await server.apiWithToken('garbage-token').GET('/cost-centers/v1/cost-centers');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(error).toMatchObject({ error: 'Unauthorized', code: 401, details: [] });
  });

  it('when the Authorization header is not a bearer token, then 401', async () => {
    const res = await fetch(`${server.baseUrl}/cost-centers/v1/cost-centers`, {
      headers: { Authorization: `Basic ${btoa('a:b')}` },
    });
    expect(res.status).toBe(401);
  });

  it('when the token has expired (30 minutes), then 401; a second earlier it still works', async () => {
    const company = await server.newCompany();
    server.clock.advance(1800_000 - 1000);
    expect((await company.api.GET('/cost-centers/v1/cost-centers')).response.status).toBe(200);
    server.clock.advance(1000);
    const { response } = await company.api.GET('/cost-centers/v1/cost-centers');
    expect(response.status).toBe(401);
    server.clock.advance(-1800_000);
  });

  it('when the client is revoked, then its tokens stop working', async () => {
    const company = await server.newCompany();
    await revokeClient(server.db, server.clock, company.clientId);
    expect((await company.api.GET('/cost-centers/v1/cost-centers')).response.status).toBe(401);
  });

  it('when the token lacks the scope of the operation, then 403 naming the scope', async () => {
    const reader = await server.newCompany({ scopes: ['directory:read'] });
    const { response, error } = await reader.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Marketing' } });
    expect(response.status).toBe(403);
    expect(error).toMatchObject({ error: 'Forbidden', code: 403 });
    expect(error?.message).toContain('directory:write');
  });

  it('when a second client of the same company asks for a token, then it acts on the same company', async () => {
    const second = await createClient(server.db, server.clock, {
      companyId: acme.companyId,
      scopes: ['directory:read', 'directory:write'],
    });
    const res = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: second.clientId,
        client_secret: second.clientSecret,
      }),
    });
    const { access_token } = (await res.json()) as { access_token: string };
    const created = await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Shared by clients' } });
    const seen = await server
      .apiWithToken(access_token)
      .GET('/cost-centers/v1/cost-centers/{id}', { params: { path: { id: created.data!.id } } });
    expect(seen.response.status).toBe(200);
  });
});

describe('401 messages say what to fix', () => {
  const call = (authorization?: string) =>
    fetch(`${server.baseUrl}/cost-centers/v1/cost-centers`, {
      headers: authorization === undefined ? {} : { Authorization: authorization },
    });
  const refusal = async (authorization?: string) => {
    const res = await call(authorization);
    const body = (await res.json()) as { message: string };
    return { status: res.status, message: body.message, challenge: res.headers.get('www-authenticate') ?? '' };
  };

  it('when the scheme is written bearer or BEARER, then a valid token works (the scheme is case-insensitive)', async () => {
    expect((await call(`bearer ${acme.token}`)).status).toBe(200);
    expect((await call(`BEARER  ${acme.token}`)).status).toBe(200);
  });

  it('when no token, Basic credentials, a malformed token or a garbage token is sent, then each 401 says which, in the body and in error_description', async () => {
    const missing = await refusal();
    const basic = await refusal(`Basic ${btoa(`${acme.clientId}:${acme.clientSecret}`)}`);
    const malformed = await refusal('Bearer not a token!');
    const garbage = await refusal('Bearer garbage-token');
    expect(missing.message).toMatch(/access token is required/);
    expect(basic.message).toMatch(/uses the Basic scheme.*Bearer.*POST \/oauth\/token/);
    expect(malformed.message).toMatch(/malformed/);
    expect(garbage.message).toMatch(/not recognised/);
    expect(new Set([missing, basic, malformed, garbage].map((r) => r.message)).size).toBe(4);
    for (const r of [missing, basic, malformed, garbage]) {
      expect(r.status).toBe(401);
      expect(r.challenge).toMatch(/^Bearer realm="finance".*error_description="[^"]+"/);
    }
    expect(basic.challenge).toContain('error="invalid_request"');
    expect(garbage.challenge).toContain('error="invalid_token"');
  });

  it('when the token has expired or its client was revoked, then the 401 says so', async () => {
    const expiring = await server.newCompany();
    const revoked = await server.newCompany();
    await revokeClient(server.db, server.clock, revoked.clientId);
    expect((await refusal(`Bearer ${revoked.token}`)).message).toMatch(/revoked/);
    server.clock.advance(1800_000);
    try {
      const expired = await refusal(`Bearer ${expiring.token}`);
      expect(expired.message).toMatch(/expired at \d{4}-/);
      expect(expired.challenge).toContain('error_description="the access token expired"');
    } finally {
      server.clock.advance(-1800_000);
    }
  });
});
