import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createSupplier, expectError } from './support/factories/directory.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const PATH = '/suppliers/v1/suppliers';
const ITEM = '/suppliers/v1/suppliers/{id}';

const get = (tenant: TestCompany, id: number | string) =>
  tenant.api.GET(ITEM, { params: { path: { id: id as number } } });
const page = (tenant: TestCompany, query: { limit?: number; nextPageStartKey?: string } = {}) =>
  tenant.api.GET(PATH, { params: { query } });
const names = async (tenant: TestCompany) =>
  ((await page(tenant, { limit: 100 })).data?.items ?? []).map((item) => item.name);

describe('listSuppliers', () => {
  it('when the company has none, then 200 with no items and no nextPageStartKey', async () => {
    const acme = await server.newCompany();
    const { data, response } = await page(acme);
    expect(response.status).toBe(200);
    expect(data).toEqual({ items: [] });
  });

  it('when walked page by page, then every supplier once, DEFAULT and CUSTOM, in id order, and no key on the last page', async () => {
    const acme = await server.newCompany();
    const created = [];
    for (let i = 0; i < 7; i += 1)
      created.push(await createSupplier(server.db, acme.companyId, { type: i % 3 === 0 ? 'DEFAULT' : 'CUSTOM' }));
    const seen: number[] = [];
    let key: string | undefined;
    let pages = 0;
    do {
      const { data } = await page(acme, { limit: 3, ...(key ? { nextPageStartKey: key } : {}) });
      seen.push(...(data?.items ?? []).map((item) => item.id));
      key = data?.nextPageStartKey;
      pages += 1;
    } while (key);
    expect(pages).toBe(3);
    expect(seen).toEqual(created.map((s) => s.id));
    expect((await get(acme, created[0]!.id)).data?.type).toEqual({ id: 1, type: 'DEFAULT' });
  });

  it('when the page is exactly full, then the next page is empty and has no key', async () => {
    const acme = await server.newCompany();
    for (let i = 0; i < 2; i += 1) await createSupplier(server.db, acme.companyId);
    const first = await page(acme, { limit: 2 });
    expect(first.data?.items).toHaveLength(2);
    expect(first.data?.nextPageStartKey).toBeUndefined();
  });

  it('when limit is omitted, then 50 per page', async () => {
    const acme = await server.newCompany();
    for (let i = 0; i < 51; i += 1) await createSupplier(server.db, acme.companyId);
    const { data } = await page(acme);
    expect(data?.items).toHaveLength(50);
    expect(data?.nextPageStartKey).toEqual(expect.any(String));
  });

  it.each([1, 100])('when limit is %i, then 200', async (limit) => {
    const acme = await server.newCompany();
    await createSupplier(server.db, acme.companyId);
    expect((await page(acme, { limit })).response.status).toBe(200);
  });

  it.each([0, 101, -1])('when limit is %i, then 400', async (limit) => {
    const acme = await server.newCompany();
    expectError(await page(acme, { limit }), 400);
  });

  it('when the nextPageStartKey is tampered with, or was issued to another company, then 400', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    for (let i = 0; i < 2; i += 1) await createSupplier(server.db, acme.companyId);
    const key = (await page(acme, { limit: 1 })).data?.nextPageStartKey ?? '';
    const [payload, signature] = key.split('.');
    const forged = `${Buffer.from(JSON.stringify({ k: [0] })).toString('base64url')}.${signature}`;
    expectError(await page(acme, { nextPageStartKey: forged }), 400);
    expectError(await page(acme, { nextPageStartKey: `${payload}.x${signature}` }), 400);
    expectError(await page(globex, { nextPageStartKey: key }), 400);
  });

  it('when another company has suppliers, then they are not listed', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    await createSupplier(server.db, globex.companyId, { name: 'Globex Supplies' });
    expect(await names(acme)).toEqual([]);
  });

  it('when the token lacks directory:read, then 403', async () => {
    const writer = await server.newCompany({ scopes: ['directory:write'] });
    expectError(await page(writer), 403);
  });
});
