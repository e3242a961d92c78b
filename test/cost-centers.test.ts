import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createCostCenter, expectError } from './support/factories/directory.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const PATH = '/cost-centers/v1/cost-centers';
const ITEM = '/cost-centers/v1/cost-centers/{id}';

const create = (tenant: TestCompany, body: Record<string, unknown>) =>
  tenant.api.POST(PATH, { body: body as { name: string } });
const get = (tenant: TestCompany, id: string) => tenant.api.GET(ITEM, { params: { path: { id } } });
const rename = (tenant: TestCompany, id: string, body: Record<string, unknown>) =>
  tenant.api.PATCH(ITEM, { params: { path: { id } }, body: body as { name: string } });
const names = async (tenant: TestCompany) => ((await tenant.api.GET(PATH)).data?.items ?? []).map((item) => item.name);

describe('createCostCenter', () => {
  it('when the name is new, then 201 with the cost center and its Location, and it can be read back', async () => {
    const acme = await server.newCompany();
    const { data, response } = await create(acme, { name: 'Marketing' });
    expect(response.status).toBe(201);
    expect(data).toEqual({ id: expect.any(String), companyId: acme.companyId, name: 'Marketing' });
    expect(response.headers.get('Location')).toBe(`${server.baseUrl}${PATH}/${data?.id}`);
    expect((await get(acme, data!.id)).data).toEqual(data);
  });

  it.each([
    ['of 1 character', 'a', 'a'],
    ['of 120 characters', 'x'.repeat(120), 'x'.repeat(120)],
    ['with blanks around it', '  Marketing  ', 'Marketing'],
    ['with accents', 'Pós-venda', 'Pós-venda'],
  ])('when the name is %s, then 201 and it is stored trimmed', async (_case, name, stored) => {
    const acme = await server.newCompany();
    const { data, response } = await create(acme, { name });
    expect(response.status).toBe(201);
    expect(data?.name).toBe(stored);
  });

  it.each([
    ['an empty name', { name: '' }],
    ['a blank name', { name: '  \t ' }],
    ['a name of 121 characters', { name: 'x'.repeat(121) }],
    ['no name', {}],
    ['a name that is not a string', { name: 42 }],
    ['a null name', { name: null }],
    ['an unknown field', { name: 'Marketing', companyId: randomUUID() }],
  ])('when the body has %s, then 400 and nothing is created', async (_case, body) => {
    const acme = await server.newCompany();
    expect(expectError(await create(acme, body), 400).length).toBeGreaterThan(0);
    expect(await names(acme)).toEqual([]);
  });

  it.each(['Marketing', 'marketing', 'MARKETING', '  Marketing ', '\tmarketinG'])(
    'when "Marketing" exists and %j is created, then 409 and nothing is created',
    async (name) => {
      const acme = await server.newCompany();
      await createCostCenter(server.db, acme.companyId, { name: 'Marketing' });
      expectError(await create(acme, { name }), 409);
      expect(await names(acme)).toEqual(['Marketing']);
    },
  );

  it('when "Pós-venda" exists and it is sent with a decomposed accent, then 409', async () => {
    const acme = await server.newCompany();
    await createCostCenter(server.db, acme.companyId, { name: 'Pós-venda' });
    expectError(await create(acme, { name: 'PO\u0301S-VENDA' }), 409);
  });

  it('when another company has the name, then 201: names are unique per company', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    await createCostCenter(server.db, globex.companyId, { name: 'Marketing' });
    expect((await create(acme, { name: 'Marketing' })).response.status).toBe(201);
  });

  it('when two creates of one name race, then exactly one 201 and one 409', async () => {
    const acme = await server.newCompany();
    const results = await Promise.all([create(acme, { name: 'Expansão' }), create(acme, { name: ' expansão ' })]);
    expect(results.map((r) => r.response.status).sort()).toEqual([201, 409]);
    expect(await names(acme)).toHaveLength(1);
  });

  it('when the token lacks directory:write, then 403 and nothing is created', async () => {
    const reader = await server.newCompany({ scopes: ['directory:read'] });
    expectError(await create(reader, { name: 'Marketing' }), 403);
    expect(await names(reader)).toEqual([]);
  });
});

describe('getCostCenter', () => {
  it('when the cost center belongs to the company, then 200 with id, companyId and name', async () => {
    const acme = await server.newCompany();
    const row = await createCostCenter(server.db, acme.companyId, { name: 'Engenharia' });
    const { data, response } = await get(acme, row.id);
    expect(response.status).toBe(200);
    expect(data).toEqual({ id: row.id, companyId: acme.companyId, name: 'Engenharia' });
  });

  it('when it belongs to another company, or no cost center has the id, then 404', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const row = await createCostCenter(server.db, acme.companyId);
    expectError(await get(globex, row.id), 404);
    expectError(await get(acme, randomUUID()), 404);
  });

  it('when the id is sent in upper case, then 200 with the same cost center', async () => {
    const acme = await server.newCompany();
    const row = await createCostCenter(server.db, acme.companyId);
    expect((await get(acme, row.id.toUpperCase())).data?.id).toBe(row.id);
  });

  it('when the id is not a UUID, then 400', async () => {
    const acme = await server.newCompany();
    expectError(await get(acme, 'not-a-uuid'), 400);
  });

  it('when the token lacks directory:read, then 403', async () => {
    const writer = await server.newCompany({ scopes: ['directory:write'] });
    const row = await createCostCenter(server.db, writer.companyId);
    expectError(await get(writer, row.id), 403);
  });
});

describe('updateCostCenter', () => {
  it('when the new name is free, then 200 with the renamed cost center, stored trimmed', async () => {
    const acme = await server.newCompany();
    const row = await createCostCenter(server.db, acme.companyId, { name: 'Marketing' });
    const { data, response } = await rename(acme, row.id, { name: ' Marketing Digital ' });
    expect(response.status).toBe(200);
    expect(data).toEqual({ id: row.id, companyId: acme.companyId, name: 'Marketing Digital' });
    expect((await get(acme, row.id)).data?.name).toBe('Marketing Digital');
  });

  it('when renamed to its own name in another letter case, then 200 with the new spelling', async () => {
    const acme = await server.newCompany();
    const row = await createCostCenter(server.db, acme.companyId, { name: 'marketing' });
    const { data, response } = await rename(acme, row.id, { name: 'Marketing' });
    expect(response.status).toBe(200);
    expect(data?.name).toBe('Marketing');
  });

  it.each(['Vendas', 'VENDAS', ' vendas '])(
    'when renamed to %j while "Vendas" exists, then 409 and the name stays',
    async (name) => {
      const acme = await server.newCompany();
      const row = await createCostCenter(server.db, acme.companyId, { name: 'Marketing' });
      await createCostCenter(server.db, acme.companyId, { name: 'Vendas' });
      expectError(await rename(acme, row.id, { name }), 409);
      expect((await get(acme, row.id)).data?.name).toBe('Marketing');
    },
  );

  it.each([
    ['an empty name', { name: '' }],
    ['a blank name', { name: '   ' }],
    ['a name of 121 characters', { name: 'x'.repeat(121) }],
    ['no name', {}],
    ['an unknown field', { name: 'Vendas', responsible: { id: randomUUID(), name: 'X' } }],
  ])('when the body has %s, then 400 and the name stays', async (_case, body) => {
    const acme = await server.newCompany();
    const row = await createCostCenter(server.db, acme.companyId, { name: 'Marketing' });
    expectError(await rename(acme, row.id, body), 400);
    expect((await get(acme, row.id)).data?.name).toBe('Marketing');
  });

  it('when the cost center belongs to another company, or is absent, then 404 and nothing changes', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const row = await createCostCenter(server.db, acme.companyId, { name: 'Marketing' });
    expectError(await rename(globex, row.id, { name: 'Hijacked' }), 404);
    expectError(await rename(acme, randomUUID(), { name: 'Ghost' }), 404);
    expect(await names(acme)).toEqual(['Marketing']);
  });

  it('when the token lacks directory:write, then 403', async () => {
    const reader = await server.newCompany({ scopes: ['directory:read'] });
    const row = await createCostCenter(server.db, reader.companyId, { name: 'Marketing' });
    expectError(await rename(reader, row.id, { name: 'Vendas' }), 403);
  });
});
