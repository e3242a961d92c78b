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

const create = (tenant: TestCompany, body: Record<string, unknown>) =>
  tenant.api.POST(PATH, { body: body as { name: string } });
const get = (tenant: TestCompany, id: number | string) =>
  tenant.api.GET(ITEM, { params: { path: { id: id as number } } });
const rename = (tenant: TestCompany, id: number, body: Record<string, unknown>) =>
  tenant.api.PUT(ITEM, { params: { path: { id } }, body: body as { name: string } });
const remove = (tenant: TestCompany, id: number | string) =>
  tenant.api.DELETE(ITEM, { params: { path: { id: id as number } } });
const page = (tenant: TestCompany, query: { limit?: number; nextPageStartKey?: string } = {}) =>
  tenant.api.GET(PATH, { params: { query } });
const names = async (tenant: TestCompany) =>
  ((await page(tenant, { limit: 100 })).data?.items ?? []).map((item) => item.name);

describe('createSupplier', () => {
  it('when the name is new, then 201 with a CUSTOM supplier and its Location, and it can be read back', async () => {
    const acme = await server.newCompany();
    const { data, response } = await create(acme, { name: '  Papelaria Central Ltda ' });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      id: expect.any(Number),
      companyId: acme.companyId,
      name: 'Papelaria Central Ltda',
      type: { id: 2, type: 'CUSTOM' },
    });
    expect(response.headers.get('Location')).toBe(`${server.baseUrl}${PATH}/${data?.id}`);
    expect((await get(acme, data!.id)).data).toEqual(data);
  });

  it.each([
    ['of 1 character', 'a'],
    ['of 120 characters', 'x'.repeat(120)],
  ])('when the name is %s, then 201', async (_case, name) => {
    const acme = await server.newCompany();
    expect((await create(acme, { name })).response.status).toBe(201);
  });

  it.each([
    ['an empty name', { name: '' }],
    ['a blank name', { name: ' \n ' }],
    ['a name of 121 characters', { name: 'x'.repeat(121) }],
    ['no name', {}],
    ['a name that is not a string', { name: ['Kalunga'] }],
    ['an unknown field', { name: 'Kalunga', type: { id: 1, type: 'DEFAULT' } }],
  ])('when the body has %s, then 400 and nothing is created', async (_case, body) => {
    const acme = await server.newCompany();
    expectError(await create(acme, body), 400);
    expect(await names(acme)).toEqual([]);
  });

  it.each([
    ['a CUSTOM supplier', 'CUSTOM', 'kalunga'],
    ['a DEFAULT supplier', 'DEFAULT', ' KALUNGA '],
  ] as const)('when %s already has the name (trimmed, any case), then 409', async (_case, type, name) => {
    const acme = await server.newCompany();
    await createSupplier(server.db, acme.companyId, { name: 'Kalunga', type });
    expectError(await create(acme, { name }), 409);
    expect(await names(acme)).toEqual(['Kalunga']);
  });

  it('when another company has the name, then 201', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    await createSupplier(server.db, globex.companyId, { name: 'Kalunga' });
    expect((await create(acme, { name: 'Kalunga' })).response.status).toBe(201);
  });

  it('when two creates of one name race, then exactly one 201 and one 409', async () => {
    const acme = await server.newCompany();
    const results = await Promise.all([
      create(acme, { name: 'Gráfica Rápida' }),
      create(acme, { name: 'GRÁFICA RÁPIDA' }),
    ]);
    expect(results.map((r) => r.response.status).sort()).toEqual([201, 409]);
    expect(await names(acme)).toHaveLength(1);
  });

  it('when the token lacks directory:write, then 403', async () => {
    const reader = await server.newCompany({ scopes: ['directory:read'] });
    expectError(await create(reader, { name: 'Kalunga' }), 403);
  });
});

describe('getSupplier', () => {
  it('when the supplier belongs to the company, then 200 with it', async () => {
    const acme = await server.newCompany();
    const supplier = await createSupplier(server.db, acme.companyId, { name: 'Kalunga', type: 'DEFAULT' });
    const { data, response } = await get(acme, supplier.id);
    expect(response.status).toBe(200);
    expect(data).toEqual({
      id: supplier.id,
      companyId: acme.companyId,
      name: 'Kalunga',
      type: { id: 1, type: 'DEFAULT' },
    });
  });

  it('when it belongs to another company, or no supplier has the id, then 404', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const supplier = await createSupplier(server.db, acme.companyId);
    expectError(await get(globex, supplier.id), 404);
    expectError(await get(acme, 2147483647), 404);
  });

  it.each([0, -1, 2147483648, 'abc', 1.5])('when the id is %j, then 400', async (id) => {
    const acme = await server.newCompany();
    expectError(await get(acme, id), 400);
  });

  it('when the token lacks directory:read, then 403', async () => {
    const writer = await server.newCompany({ scopes: ['directory:write'] });
    const supplier = await createSupplier(server.db, writer.companyId);
    expectError(await get(writer, supplier.id), 403);
  });
});

describe('updateSupplier', () => {
  it('when a CUSTOM supplier gets a free name, then 200 with it renamed, stored trimmed', async () => {
    const acme = await server.newCompany();
    const supplier = await createSupplier(server.db, acme.companyId, { name: 'Papelaria Central Ltda' });
    const { data, response } = await rename(acme, supplier.id, { name: ' Papelaria Central S.A. ' });
    expect(response.status).toBe(200);
    expect(data).toEqual({
      id: supplier.id,
      companyId: acme.companyId,
      name: 'Papelaria Central S.A.',
      type: { id: 2, type: 'CUSTOM' },
    });
    expect((await get(acme, supplier.id)).data?.name).toBe('Papelaria Central S.A.');
  });

  it('when renamed to its own name in another letter case, then 200', async () => {
    const acme = await server.newCompany();
    const supplier = await createSupplier(server.db, acme.companyId, { name: 'papelaria central' });
    expect((await rename(acme, supplier.id, { name: 'Papelaria Central' })).data?.name).toBe('Papelaria Central');
  });

  it.each(['Kalunga', 'kalunga '])(
    'when renamed to %j, the name of a DEFAULT supplier, then 409 and the name stays',
    async (name) => {
      const acme = await server.newCompany();
      const supplier = await createSupplier(server.db, acme.companyId, { name: 'Papelaria' });
      await createSupplier(server.db, acme.companyId, { name: 'Kalunga', type: 'DEFAULT' });
      expectError(await rename(acme, supplier.id, { name }), 409);
      expect((await get(acme, supplier.id)).data?.name).toBe('Papelaria');
    },
  );

  it('when the supplier is DEFAULT, then 409 and it keeps its name', async () => {
    const acme = await server.newCompany();
    const supplier = await createSupplier(server.db, acme.companyId, { name: 'Kalunga', type: 'DEFAULT' });
    expectError(await rename(acme, supplier.id, { name: 'Kalunga Renamed' }), 409);
    expect((await get(acme, supplier.id)).data?.name).toBe('Kalunga');
  });

  it.each([
    ['an empty name', { name: '' }],
    ['a blank name', { name: '   ' }],
    ['a name of 121 characters', { name: 'x'.repeat(121) }],
    ['no name', {}],
    ['an unknown field', { name: 'Papelaria', id: 99 }],
  ])('when the body has %s, then 400', async (_case, body) => {
    const acme = await server.newCompany();
    const supplier = await createSupplier(server.db, acme.companyId, { name: 'Papelaria' });
    expectError(await rename(acme, supplier.id, body), 400);
    expect((await get(acme, supplier.id)).data?.name).toBe('Papelaria');
  });

  it('when it belongs to another company, or is absent, then 404', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const supplier = await createSupplier(server.db, acme.companyId, { name: 'Papelaria' });
    expectError(await rename(globex, supplier.id, { name: 'Hijacked' }), 404);
    expectError(await rename(acme, 2147483647, { name: 'Ghost' }), 404);
    expect((await get(acme, supplier.id)).data?.name).toBe('Papelaria');
  });

  it('when the token lacks directory:write, then 403', async () => {
    const reader = await server.newCompany({ scopes: ['directory:read'] });
    const supplier = await createSupplier(server.db, reader.companyId);
    expectError(await rename(reader, supplier.id, { name: 'Other' }), 403);
  });
});

describe('deleteSupplier', () => {
  it('when a CUSTOM supplier is deleted, then 204, it is gone and its name is free', async () => {
    const acme = await server.newCompany();
    const supplier = await createSupplier(server.db, acme.companyId, { name: 'Papelaria' });
    expect((await remove(acme, supplier.id)).response.status).toBe(204);
    expectError(await get(acme, supplier.id), 404);
    expectError(await remove(acme, supplier.id), 404);
    expect((await create(acme, { name: 'PAPELARIA' })).response.status).toBe(201);
  });

  it('when the supplier is DEFAULT, then 409 and it stays', async () => {
    const acme = await server.newCompany();
    const supplier = await createSupplier(server.db, acme.companyId, { type: 'DEFAULT' });
    expectError(await remove(acme, supplier.id), 409);
    expect((await get(acme, supplier.id)).response.status).toBe(200);
  });

  it('when it belongs to another company, then 404 and it stays', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const supplier = await createSupplier(server.db, acme.companyId);
    expectError(await remove(globex, supplier.id), 404);
    expect((await get(acme, supplier.id)).response.status).toBe(200);
  });

  it.each([0, 2147483648, 'abc'])('when the id is %j, then 400', async (id) => {
    const acme = await server.newCompany();
    expectError(await remove(acme, id), 400);
  });

  it('when the token lacks directory:write, then 403', async () => {
    const reader = await server.newCompany({ scopes: ['directory:read'] });
    const supplier = await createSupplier(server.db, reader.companyId);
    expectError(await remove(reader, supplier.id), 403);
  });
});
