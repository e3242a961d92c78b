import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer, type TestCompany } from './support/server.js';
import { onPostgres } from './support/database.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const call = (path: string, init: RequestInit = {}) =>
  fetch(server.baseUrl + path, {
    ...init,
    headers: { Authorization: `Bearer ${acme.token}`, ...(init.headers ?? {}) },
  });

async function expectErrorBody(res: Response, status: number) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as Record<string, unknown>;
  const keys = Object.keys(body).filter((key) => key !== 'param');
  expect(keys.sort()).toEqual(['code', 'details', 'docUrl', 'error', 'message', 'reason', 'requestId']);
  expect(body.code).toBe(status);
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
  return body;
}

describe('error bodies', () => {
  it('when the JSON body is malformed, then 400 in the contract body', async () => {
    const res = await call('/cost-centers/v1/cost-centers', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name": ',
    });
    const body = await expectErrorBody(res, 400);
    expect(body.error).toBe('Bad Request');
  });

  it('when the body breaks the schema, then 400 listing every problem', async () => {
    const res = await call('/cost-centers/v1/cost-centers', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name": "", "extra": 1}',
    });
    const body = await expectErrorBody(res, 400);
    expect((body.details as string[]).length).toBeGreaterThanOrEqual(2);
  });

  it('when the body is larger than 1 MiB, then 413', async () => {
    const res = await call('/cost-centers/v1/cost-centers', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    });
    await expectErrorBody(res, 413);
  });

  it("when an amount has more than 2 decimals, then 400 saying so in the caller's terms", async () => {
    const body = await expectErrorBody(await call('/statements/v1/banking?amountEq=10.005'), 400);
    expect(body.details).toEqual(['amountEq must have at most 2 decimal places (got 10.005)']);
  });

  it('when the route does not exist, then 404', async () => {
    const body = await expectErrorBody(await call('/nothing/v1/here'), 404);
    expect(body.error).toBe('Not Found');
  });

  it('when the method is not allowed on the path, then 405 with Allow', async () => {
    const res = await call('/cost-centers/v1/cost-centers', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    await expectErrorBody(res, 405);
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('when the content type is not JSON, then 415', async () => {
    const res = await call('/cost-centers/v1/cost-centers', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'name=x',
    });
    await expectErrorBody(res, 415);
  });

  it('when the caller sends a sane X-Request-Id, then it is echoed in the header and the body', async () => {
    const res = await call('/nothing', { headers: { 'X-Request-Id': 'trace-123.abc' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123.abc');
    expect((await res.json()).requestId).toBe('trace-123.abc');
  });

  it('when the caller sends an unsafe X-Request-Id, then a fresh one is generated', async () => {
    const res = await call('/nothing', { headers: { 'X-Request-Id': 'bad id\twith spaces' } });
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9A-Z]{26}$/);
  });

  it('when the store fails unexpectedly, then 500 without stack, SQL or paths', async () => {
    const other = await startTestServer();
    const company = await other.newCompany();
    await (onPostgres ? sql`DROP TABLE cost_centers CASCADE` : sql`DROP TABLE cost_centers`)
      .execute(other.db)
      .catch(() => undefined);
    const res = await fetch(`${other.baseUrl}/cost-centers/v1/cost-centers`, {
      headers: { Authorization: `Bearer ${company.token}` },
    });
    const text = await res.clone().text();
    await expectErrorBody(res, 500);
    expect(text).not.toMatch(/cost_centers|SELECT|sqlite|postgres|relation|at .*\.ts|\/work\//i);
    await other.close();
  });
});

describe('rate limiting', () => {
  it('when a client exceeds its per-minute limit, then 429 with Retry-After and RateLimit headers, per client', async () => {
    const limited = await startTestServer({ config: { rateLimitPerMinute: 3 } });
    const a = await limited.newCompany();
    const b = await limited.newCompany();
    for (let i = 0; i < 3; i += 1) {
      const { response } = await a.api.GET('/cost-centers/v1/cost-centers');
      expect(response.status).toBe(200);
      // draft-ietf-httpapi-ratelimit-headers, structured fields: the policy and where the client stands.
      expect(response.headers.get('ratelimit-policy')).toMatch(/^"default"; q=3; w=60; pk=:[A-Za-z0-9+/=]+:$/);
      expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"default"; r=${2 - i}; t=([1-9]|[1-5][0-9]|60)$`));
      expect(response.headers.get('ratelimit-limit')).toBeNull();
    }
    const { response, error } = await a.api.GET('/cost-centers/v1/cost-centers');
    expect(response.status).toBe(429);
    const retryAfter = response.headers.get('retry-after');
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(response.headers.get('ratelimit')).toBe(`"default"; r=0; t=${retryAfter}`);
    expect(response.headers.get('ratelimit-policy')).toMatch(/^"default"; q=3; w=60;/);
    expect(error).toMatchObject({ error: 'Too Many Requests', code: 429 });
    expect((await b.api.GET('/cost-centers/v1/cost-centers')).response.status).toBe(200);
    await limited.close();
  });
});

describe('feature switch', () => {
  it('when VCN_ENABLED is off, then every VCN route answers 404', async () => {
    const off = await startTestServer({ config: { vcnEnabled: false } });
    const company = await off.newCompany();
    const res = await fetch(`${off.baseUrl}/credit-cards/v1/vcns/vcn_1/reveal`, {
      headers: { Authorization: `Bearer ${company.token}` },
    });
    expect(res.status).toBe(404);
    await off.close();
  });
});
