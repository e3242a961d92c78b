// The client's opt-in conditional requests (`etags`): GET answers kept by URL and revalidated with
// If-None-Match (a 304 served from what was kept), and If-Match on writes to a kept URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFinanceClient } from '../client/index.js';
import { createCostCenter } from './support/factories/directory.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;
beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
});
afterAll(async () => server.close());

/** A client with `etags` whose transport records every answer's status the server sent. */
function recordingClient(etags: Parameters<typeof createFinanceClient>[0]['etags']) {
  const seen: Array<{ method: string; status: number; ifNoneMatch: string | null; ifMatch: string | null }> = [];
  const client = createFinanceClient({
    baseUrl: server.baseUrl,
    clientId: acme.clientId,
    clientSecret: acme.clientSecret,
    etags,
    fetch: async (request) => {
      const response = await fetch(request);
      if (!request.url.endsWith('/oauth/token'))
        seen.push({
          method: request.method,
          status: response.status,
          ifNoneMatch: request.headers.get('If-None-Match'),
          ifMatch: request.headers.get('If-Match'),
        });
      return response;
    },
  });
  return { client, seen };
}

describe('client etags', () => {
  it('when a list is read twice unchanged, then the second call revalidates (304 on the wire) and gets the same data; after a change, 200 again', async () => {
    await createCostCenter(server.db, acme.companyId, { name: 'Marketing' });
    const { client, seen } = recordingClient(true);
    const first = await client.GET('/cost-centers/v1/cost-centers');
    const second = await client.GET('/cost-centers/v1/cost-centers');
    expect(second.response.status).toBe(200);
    expect(second.data).toEqual(first.data);
    expect(seen.map((s) => s.status)).toEqual([200, 304]);
    expect(seen[1]!.ifNoneMatch).toBe(first.response.headers.get('ETag'));

    await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Vendas' } });
    const third = await client.GET('/cost-centers/v1/cost-centers');
    expect(seen.at(-1)!.status).toBe(200);
    expect(third.data?.items.map((c) => c.name)).toContain('Vendas');
  });

  it('when ifMatch is on and someone else renamed the item since it was read, then the write is 412 and nothing changes', async () => {
    const cc = await createCostCenter(server.db, acme.companyId, { name: 'Compras' });
    const path = { params: { path: { id: cc.id } } };
    const { client, seen } = recordingClient({ ifMatch: true });
    await client.GET('/cost-centers/v1/cost-centers/{id}', path);
    await acme.api.PATCH('/cost-centers/v1/cost-centers/{id}', { ...path, body: { name: 'Suprimentos' } });

    const refused = await client.PATCH('/cost-centers/v1/cost-centers/{id}', { ...path, body: { name: 'Compras BR' } });
    expect(refused.response.status).toBe(412);
    expect(refused.error).toMatchObject({ reason: 'precondition_failed' });
    expect(seen.at(-1)!.ifMatch).toMatch(/^"/);
    expect((await acme.api.GET('/cost-centers/v1/cost-centers/{id}', path)).data?.name).toBe('Suprimentos');

    // Read again, then the write applies.
    await client.GET('/cost-centers/v1/cost-centers/{id}', path);
    const written = await client.PATCH('/cost-centers/v1/cost-centers/{id}', { ...path, body: { name: 'Compras BR' } });
    expect(written.response.status).toBe(200);
  });

  it('when etags are off (the default), then no conditional header is sent', async () => {
    const { client, seen } = recordingClient(undefined);
    await client.GET('/cost-centers/v1/cost-centers');
    await client.GET('/cost-centers/v1/cost-centers');
    expect(seen.map((s) => [s.status, s.ifNoneMatch])).toEqual([
      [200, null],
      [200, null],
    ]);
  });
});
