import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createCategory, createSupplier, expectError } from './support/factories/directory.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const PATH = '/categories/v1/categories';
const ITEM = '/categories/v1/categories/{id}';
const TYPE_SINCE = '2025-01-01T00:00:00.000Z';
const DEFAULT_TYPE = { id: 1, createdAt: TYPE_SINCE, updatedAt: TYPE_SINCE, type: 'DEFAULT' };
const CUSTOM_TYPE = { id: 2, createdAt: TYPE_SINCE, updatedAt: TYPE_SINCE, type: 'CUSTOM' };

const create = (tenant: TestCompany, body: Record<string, unknown>) =>
  tenant.api.POST(PATH, { body: body as { name: string } });
const get = (tenant: TestCompany, id: number | string) =>
  tenant.api.GET(ITEM, { params: { path: { id: id as number } } });
const rename = (tenant: TestCompany, id: number | string, body: Record<string, unknown>) =>
  tenant.api.PATCH(ITEM, { params: { path: { id: id as number } }, body: body as { name: string } });
const page = (tenant: TestCompany, query: { limit?: number; nextPageStartKey?: string } = {}) =>
  tenant.api.GET(PATH, { params: { query } });
const names = async (tenant: TestCompany) =>
  ((await page(tenant, { limit: 100 })).data?.items ?? []).map((item) => item.name);

describe('createCategory', () => {
  it('when the name is new, then 201 with a CUSTOM category without establishments, and its Location', async () => {
    const acme = await server.newCompany();
    const now = server.clock.now().toISOString();
    const { data, response } = await create(acme, { name: ' 3.1.02 Viagens nacionais ' });
    expect(response.status).toBe(201);
    expect(data).toEqual({
      id: expect.any(Number),
      createdAt: now,
      updatedAt: now,
      companyId: acme.companyId,
      name: '3.1.02 Viagens nacionais',
      establishments: [],
      type: CUSTOM_TYPE,
    });
    expect(response.headers.get('Location')).toBe(`${server.baseUrl}${PATH}/${data?.id}`);
    expect((await get(acme, data!.id)).data).toEqual(data);
  });

  it.each([
    ['of 1 character', '7'],
    ['of 120 characters', 'x'.repeat(120)],
  ])('when the name is %s, then 201', async (_case, name) => {
    const acme = await server.newCompany();
    expect((await create(acme, { name })).response.status).toBe(201);
  });

  it.each([
    ['an empty name', { name: '' }],
    ['a blank name', { name: '\t' }],
    ['a name of 121 characters', { name: 'x'.repeat(121) }],
    ['no name', {}],
    ['a name that is not a string', { name: 3102 }],
    ['an unknown field', { name: 'Viagens', establishments: [] }],
  ])('when the body has %s, then 400 and nothing is created', async (_case, body) => {
    const acme = await server.newCompany();
    expectError(await create(acme, body), 400);
    expect(await names(acme)).toEqual([]);
  });

  it.each([
    ['a CUSTOM category', 'CUSTOM', 'viagens'],
    ['a DEFAULT category', 'DEFAULT', '  VIAGENS'],
  ] as const)('when %s already has the name (trimmed, any case), then 409', async (_case, type, name) => {
    const acme = await server.newCompany();
    await createCategory(server.db, acme.companyId, { name: 'Viagens', type });
    expectError(await create(acme, { name }), 409);
    expect(await names(acme)).toEqual(['Viagens']);
  });

  it('when another company, or a supplier of the company, has the name, then 201', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    await createCategory(server.db, globex.companyId, { name: 'Viagens' });
    await createSupplier(server.db, acme.companyId, { name: 'Viagens' });
    expect((await create(acme, { name: 'Viagens' })).response.status).toBe(201);
  });

  it('when two creates of one name race, then exactly one 201 and one 409', async () => {
    const acme = await server.newCompany();
    const results = await Promise.all([create(acme, { name: 'Alimentação' }), create(acme, { name: 'alimentação' })]);
    expect(results.map((r) => r.response.status).sort()).toEqual([201, 409]);
    expect(await names(acme)).toHaveLength(1);
  });

  it('when the token lacks directory:write, then 403', async () => {
    const reader = await server.newCompany({ scopes: ['directory:read'] });
    expectError(await create(reader, { name: 'Viagens' }), 403);
  });
});

describe('getCategory', () => {
  it('when the category belongs to the company, then 200 with its type and establishments in id order', async () => {
    const acme = await server.newCompany();
    const fuel = await createCategory(server.db, acme.companyId, {
      name: 'Combustível',
      type: 'DEFAULT',
      establishments: ['Posto Ipiranga', 'Shell Select'],
    });
    await createCategory(server.db, acme.companyId, { name: 'Outra', establishments: 1 });
    const { data, response } = await get(acme, fuel.id);
    expect(response.status).toBe(200);
    expect(data).toEqual({
      id: fuel.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      companyId: acme.companyId,
      name: 'Combustível',
      type: DEFAULT_TYPE,
      establishments: ['Posto Ipiranga', 'Shell Select'].map((name, i) => ({
        id: fuel.establishmentIds[i],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        name,
        type: DEFAULT_TYPE,
        establishmentCategoryId: fuel.id,
      })),
    });
  });

  it('when it belongs to another company, or no category has the id, then 404', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const category = await createCategory(server.db, acme.companyId);
    expectError(await get(globex, category.id), 404);
    expectError(await get(acme, 2147483647), 404);
  });

  it.each([0, 2147483648, 'abc'])('when the id is %j, then 400', async (id) => {
    const acme = await server.newCompany();
    expectError(await get(acme, id), 400);
  });

  it('when the token lacks directory:read, then 403', async () => {
    const writer = await server.newCompany({ scopes: ['directory:write'] });
    const category = await createCategory(server.db, writer.companyId);
    expectError(await get(writer, category.id), 403);
  });
});

describe('updateCategory', () => {
  it('when a CUSTOM category gets a free name, then 200 with it renamed, updatedAt moved, establishments kept', async () => {
    const acme = await server.newCompany();
    const category = await createCategory(server.db, acme.companyId, { name: 'Viagens', establishments: 2 });
    server.clock.advance(60_000);
    const { data, response } = await rename(acme, category.id, { name: ' Viagens nacionais ' });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      id: category.id,
      name: 'Viagens nacionais',
      updatedAt: server.clock.now().toISOString(),
      type: CUSTOM_TYPE,
    });
    expect(data?.createdAt).not.toBe(data?.updatedAt);
    expect(data?.establishments.map((e) => e.id)).toEqual(category.establishmentIds);
    expect((await get(acme, category.id)).data).toEqual(data);
  });

  it('when renamed to its own name in another letter case, then 200', async () => {
    const acme = await server.newCompany();
    const category = await createCategory(server.db, acme.companyId, { name: 'viagens' });
    expect((await rename(acme, category.id, { name: 'Viagens' })).data?.name).toBe('Viagens');
  });

  it.each(['Combustível', 'COMBUSTÍVEL'])(
    'when renamed to %j, the name of another category, then 409',
    async (name) => {
      const acme = await server.newCompany();
      const category = await createCategory(server.db, acme.companyId, { name: 'Viagens' });
      await createCategory(server.db, acme.companyId, { name: 'Combustível', type: 'DEFAULT' });
      expectError(await rename(acme, category.id, { name }), 409);
      expect((await get(acme, category.id)).data?.name).toBe('Viagens');
    },
  );

  it('when the category is DEFAULT, then 409 and it keeps its name', async () => {
    const acme = await server.newCompany();
    const category = await createCategory(server.db, acme.companyId, { name: 'Combustível', type: 'DEFAULT' });
    expectError(await rename(acme, category.id, { name: 'Gasolina' }), 409);
    expect((await get(acme, category.id)).data?.name).toBe('Combustível');
  });

  it.each([
    ['an empty name', { name: '' }],
    ['a blank name', { name: '  ' }],
    ['a name of 121 characters', { name: 'x'.repeat(121) }],
    ['no name', {}],
    ['an unknown field', { name: 'Viagens 2', type: { type: 'DEFAULT' } }],
  ])('when the body has %s, then 400', async (_case, body) => {
    const acme = await server.newCompany();
    const category = await createCategory(server.db, acme.companyId, { name: 'Viagens' });
    expectError(await rename(acme, category.id, body), 400);
    expect((await get(acme, category.id)).data?.name).toBe('Viagens');
  });

  it('when it belongs to another company, or is absent, then 404', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const category = await createCategory(server.db, acme.companyId, { name: 'Viagens' });
    expectError(await rename(globex, category.id, { name: 'Hijacked' }), 404);
    expectError(await rename(acme, 2147483647, { name: 'Ghost' }), 404);
    expect((await get(acme, category.id)).data?.name).toBe('Viagens');
  });

  it('when the id is not a positive int32, then 400', async () => {
    const acme = await server.newCompany();
    expectError(await rename(acme, 0, { name: 'Viagens' }), 400);
  });

  it('when the token lacks directory:write, then 403', async () => {
    const reader = await server.newCompany({ scopes: ['directory:read'] });
    const category = await createCategory(server.db, reader.companyId);
    expectError(await rename(reader, category.id, { name: 'Other' }), 403);
  });
});
