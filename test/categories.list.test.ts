import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createCategory, createSupplier, expectError } from './support/factories/directory.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const PATH = '/categories/v1/categories';

const page = (tenant: TestCompany, query: { limit?: number; nextPageStartKey?: string } = {}) =>
  tenant.api.GET(PATH, { params: { query } });

describe('listCategories', () => {
  it('when walked page by page, then every category once, with establishments, in id order, no key on the last page', async () => {
    const acme = await server.newCompany();
    const created = [];
    for (let i = 0; i < 5; i += 1) {
      created.push(
        await createCategory(server.db, acme.companyId, { type: i < 2 ? 'DEFAULT' : 'CUSTOM', establishments: i % 3 }),
      );
    }
    const seen: Array<{ id: number; establishments: number[] }> = [];
    let key: string | undefined;
    do {
      const { data, response } = await page(acme, { limit: 2, ...(key ? { nextPageStartKey: key } : {}) });
      expect(response.status).toBe(200);
      seen.push(...(data?.items ?? []).map((c) => ({ id: c.id, establishments: c.establishments.map((e) => e.id) })));
      key = data?.nextPageStartKey;
    } while (key);
    expect(seen).toEqual(created.map((c) => ({ id: c.id, establishments: c.establishmentIds })));
  });

  it('when limit is omitted, then 50 per page', async () => {
    const acme = await server.newCompany();
    for (let i = 0; i < 51; i += 1) await createCategory(server.db, acme.companyId);
    const { data } = await page(acme);
    expect(data?.items).toHaveLength(50);
    expect(data?.nextPageStartKey).toEqual(expect.any(String));
  });

  it.each([1, 100])('when limit is %i, then 200', async (limit) => {
    const acme = await server.newCompany();
    expect((await page(acme, { limit })).response.status).toBe(200);
  });

  it.each([0, 101])('when limit is %i, then 400', async (limit) => {
    const acme = await server.newCompany();
    expectError(await page(acme, { limit }), 400);
  });

  it("when given a suppliers key, a tampered key, or another company's key, then 400", async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    for (let i = 0; i < 2; i += 1) {
      await createCategory(server.db, acme.companyId);
      await createSupplier(server.db, acme.companyId);
    }
    const supplierKey =
      (await acme.api.GET('/suppliers/v1/suppliers', { params: { query: { limit: 1 } } })).data?.nextPageStartKey ?? '';
    const key = (await page(acme, { limit: 1 })).data?.nextPageStartKey ?? '';
    expectError(await page(acme, { nextPageStartKey: supplierKey }), 400);
    expectError(await page(acme, { nextPageStartKey: key.replace('.', '.A') }), 400);
    expectError(await page(acme, { nextPageStartKey: 'garbage' }), 400);
    expectError(await page(globex, { nextPageStartKey: key }), 400);
  });

  it('when another company has categories, then they are not listed', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    await createCategory(server.db, globex.companyId, { name: 'Globex only', establishments: 2 });
    expect((await page(acme)).data).toEqual({ items: [] });
  });

  it('when the token lacks directory:read, then 403', async () => {
    const writer = await server.newCompany({ scopes: ['directory:write'] });
    expectError(await page(writer), 403);
  });
});
