// createFinanceClient: the token is fetched once and cached, refreshed shortly before it expires and
// once after a 401, with one token request shared by concurrent calls; every call has an X-Request-Id.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFinanceClient, FinanceApiError, unwrap, type FinanceClientOptions } from '../client/index.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());
beforeEach(() => server.clock.set('2026-11-20T15:00:00Z'));

const MINUTE = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The real transport, recording each request and the status it got. */
function recording() {
  const sent: Array<{ request: Request; status: number }> = [];
  const fetch = async (request: Request) => {
    const entry = { request: request.clone(), status: 0 };
    sent.push(entry);
    const response = await globalThis.fetch(request);
    entry.status = response.status;
    return response;
  };
  const to = (path: string) => sent.filter((s) => new URL(s.request.url).pathname === path);
  return { sent, fetch, tokenRequests: () => to('/oauth/token').length, to };
}

async function clientOf(
  company: TestCompany,
  options: Partial<Extract<FinanceClientOptions, { clientSecret: string }>> = {},
) {
  const transport = recording();
  const client = createFinanceClient({
    baseUrl: server.baseUrl,
    clientId: company.clientId,
    clientSecret: company.clientSecret,
    fetch: transport.fetch,
    clock: server.clock,
    ...options,
  });
  return { client, transport };
}

const listCostCenters = (client: ReturnType<typeof createFinanceClient>) => client.GET('/cost-centers/v1/cost-centers');
const revokeTokens = (clientId: string) =>
  server.db.deleteFrom('access_tokens').where('client_id', '=', clientId).execute();

describe('createFinanceClient: tokens', () => {
  it('when two calls are made, then one token is fetched (HTTP Basic) and both send it as a bearer token', async () => {
    const { client, transport } = await clientOf(await server.newCompany());
    await unwrap(listCostCenters(client));
    await unwrap(listCostCenters(client));
    expect(transport.tokenRequests()).toBe(1);
    const [token] = transport.to('/oauth/token');
    expect(token?.request.headers.get('Authorization')).toMatch(/^Basic /);
    const bearers = transport.to('/cost-centers/v1/cost-centers').map((s) => s.request.headers.get('Authorization'));
    expect(bearers).toEqual([expect.stringMatching(/^Bearer .+/), bearers[0]]);
  });

  it('when the token is a minute from expiring, then the client fetches a new one before the call and never sees a 401', async () => {
    const { client, transport } = await clientOf(await server.newCompany());
    await unwrap(listCostCenters(client));
    server.clock.advance(29 * MINUTE - 1000);
    await unwrap(listCostCenters(client));
    expect(transport.tokenRequests()).toBe(1);
    server.clock.advance(1000);
    await unwrap(listCostCenters(client));
    expect(transport.tokenRequests()).toBe(2);
    expect(transport.sent.map((s) => s.status)).not.toContain(401);
  });

  it('when the client clock runs behind and the server expires the token, then the 401 is answered by one refresh and the call succeeds', async () => {
    const { client, transport } = await clientOf(await server.newCompany(), {
      clock: { now: () => new Date('2026-11-20T15:00:00Z') },
    });
    await unwrap(listCostCenters(client));
    server.clock.advance(31 * MINUTE);
    const { data, response } = await listCostCenters(client);
    expect(response.status).toBe(200);
    expect(data?.items).toEqual([]);
    expect(transport.to('/cost-centers/v1/cost-centers').map((s) => s.status)).toEqual([200, 401, 200]);
    expect(transport.tokenRequests()).toBe(2);
  });

  it('when the token is revoked, then a POST is re-sent once with a new token and applied once', async () => {
    const company = await server.newCompany();
    const { client, transport } = await clientOf(company);
    await unwrap(listCostCenters(client));
    await revokeTokens(company.clientId);
    const created = await unwrap(client.POST('/cost-centers/v1/cost-centers', { body: { name: 'Marketing' } }));
    expect(created.name).toBe('Marketing');
    expect(transport.to('/cost-centers/v1/cost-centers').map((s) => `${s.request.method} ${s.status}`)).toEqual([
      'GET 200',
      'POST 401',
      'POST 201',
    ]);
    expect((await unwrap(listCostCenters(client))).items.map((c) => c.name)).toEqual(['Marketing']);
  });

  it('when the fresh token is refused too, then the 401 is returned after one refresh, not retried forever', async () => {
    const company = await server.newCompany();
    const { client, transport } = await clientOf(company);
    await unwrap(listCostCenters(client));
    // every token the server issues from now on is revoked right away
    const revoking = async (request: Request) => {
      const response = await transport.fetch(request);
      if (new URL(request.url).pathname === '/oauth/token') await revokeTokens(company.clientId);
      return response;
    };
    await revokeTokens(company.clientId);
    const again = createFinanceClient({
      baseUrl: server.baseUrl,
      clientId: company.clientId,
      clientSecret: company.clientSecret,
      fetch: revoking,
    });
    const error = await unwrap(listCostCenters(again)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinanceApiError);
    expect(error).toMatchObject({ status: 401, code: 401, error: 'Unauthorized' });
    expect(
      transport
        .to('/cost-centers/v1/cost-centers')
        .slice(1)
        .map((s) => s.status),
    ).toEqual([401, 401]);
  });

  it('when 20 calls start together, then they share one token request; after expiry and after a revocation, one more each', async () => {
    const company = await server.newCompany();
    const { client, transport } = await clientOf(company);
    const burst = async () => {
      const replies = await Promise.all(Array.from({ length: 20 }, () => listCostCenters(client)));
      expect(replies.map((r) => r.response.status)).toEqual(Array(20).fill(200));
    };
    await burst();
    expect(transport.tokenRequests()).toBe(1);
    server.clock.advance(29 * MINUTE);
    await burst();
    expect(transport.tokenRequests()).toBe(2);
    await revokeTokens(company.clientId);
    await burst();
    expect(transport.tokenRequests()).toBe(3);
    expect(transport.sent.filter((s) => s.status === 401).length).toBe(20);
  });

  it('when the secret is wrong, then the call throws a FinanceApiError with the OAuth error', async () => {
    const company = await server.newCompany();
    const { client } = await clientOf({ ...company, clientSecret: 'sk_wrong' });
    const error = await listCostCenters(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinanceApiError);
    expect(error).toMatchObject({ status: 401, error: 'invalid_client', code: 401 });
  });

  it('when a scope subset is asked, then the token carries only it and other operations get 403', async () => {
    const { client, transport } = await clientOf(await server.newCompany(), { scope: ['directory:read'] });
    expect((await listCostCenters(client)).response.status).toBe(200);
    const { response } = await client.GET('/users/v1/users');
    expect(response.status).toBe(403);
    const form = new URLSearchParams(await transport.to('/oauth/token')[0]!.request.text());
    expect(Object.fromEntries(form)).toEqual({ grant_type: 'client_credentials', scope: 'directory:read' });
  });
});

describe('createFinanceClient: request ids', () => {
  it('when calls are made, then each sends its own UUID X-Request-Id and the server echoes it', async () => {
    const { client, transport } = await clientOf(await server.newCompany());
    const first = await listCostCenters(client);
    const second = await listCostCenters(client);
    const ids = transport.to('/cost-centers/v1/cost-centers').map((s) => s.request.headers.get('X-Request-Id'));
    expect(ids).toEqual([expect.stringMatching(UUID), expect.stringMatching(UUID)]);
    expect(ids[0]).not.toBe(ids[1]);
    expect([first, second].map((r) => r.response.headers.get('X-Request-Id'))).toEqual(ids);
  });

  it('when the caller sets X-Request-Id, then it is kept', async () => {
    const { client } = await clientOf(await server.newCompany());
    const { response } = await client.GET('/cost-centers/v1/cost-centers', {
      headers: { 'X-Request-Id': 'order-sync-42' },
    });
    expect(response.headers.get('X-Request-Id')).toBe('order-sync-42');
  });
});
