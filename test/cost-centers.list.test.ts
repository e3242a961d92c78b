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

const get = (tenant: TestCompany, id: string) => tenant.api.GET(ITEM, { params: { path: { id } } });
const names = async (tenant: TestCompany) => ((await tenant.api.GET(PATH)).data?.items ?? []).map((item) => item.name);

describe('listCostCenters', () => {
  it('when the company has none, then 200 with no items', async () => {
    const acme = await server.newCompany();
    const { data, response } = await acme.api.GET(PATH);
    expect(response.status).toBe(200);
    expect(data).toEqual({ items: [] });
  });

  it('when it has several, then all of them, by name case-insensitively, without pagination', async () => {
    const acme = await server.newCompany();
    for (const name of ['marketing', 'Engenharia', 'Vendas', 'administrativo'])
      await createCostCenter(server.db, acme.companyId, { name });
    for (let i = 0; i < 120; i += 1)
      await createCostCenter(server.db, acme.companyId, { name: `Projeto ${String(i).padStart(3, '0')}` });
    const { data } = await acme.api.GET(PATH);
    expect(data?.items).toHaveLength(124);
    expect(data?.items.slice(0, 3).map((i) => i.name)).toEqual(['administrativo', 'Engenharia', 'marketing']);
    expect(data).not.toHaveProperty('nextPageStartKey');
  });

  it('when a cost center has a recorded responsible, then only the list shows the deprecated responsible', async () => {
    const acme = await server.newCompany();
    const responsible = { id: randomUUID(), name: 'Mariana Souza' };
    const marketing = await createCostCenter(server.db, acme.companyId, { name: 'Marketing', responsible });
    const plain = await createCostCenter(server.db, acme.companyId, { name: 'Vendas' });
    const { data } = await acme.api.GET(PATH);
    expect(data?.items).toEqual([
      { id: marketing.id, companyId: acme.companyId, name: 'Marketing', responsible },
      { id: plain.id, companyId: acme.companyId, name: 'Vendas' },
    ]);
    expect((await get(acme, marketing.id)).data).toEqual({
      id: marketing.id,
      companyId: acme.companyId,
      name: 'Marketing',
    });
  });

  it('when another company has cost centers, then they are not listed', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    await createCostCenter(server.db, globex.companyId, { name: 'Globex only' });
    expect(await names(acme)).toEqual([]);
  });

  it('when the token lacks directory:read, then 403; without a token, 401', async () => {
    const writer = await server.newCompany({ scopes: ['directory:write'] });
    expectError(await writer.api.GET(PATH), 403);
    expectError(await server.anonymous.GET(PATH), 401);
  });
});
