import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  classificationOf,
  createCategory,
  createClassifiedTransactions,
  createCostCenter,
  expectError,
} from './support/factories/directory.js';

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
const remove = (tenant: TestCompany, id: string) => tenant.api.DELETE(ITEM, { params: { path: { id } } });

describe('deleteCostCenter', () => {
  it('when the cost center exists, then 204, it is gone, and its name is free again', async () => {
    const acme = await server.newCompany();
    const row = await createCostCenter(server.db, acme.companyId, { name: 'Marketing' });
    const { response } = await remove(acme, row.id);
    expect(response.status).toBe(204);
    expectError(await get(acme, row.id), 404);
    expectError(await remove(acme, row.id), 404);
    expect((await create(acme, { name: 'marketing' })).response.status).toBe(201);
  });

  it('when transactions are classified with it, then 204 and they lose only that cost center', async () => {
    const acme = await server.newCompany();
    const doomed = await createCostCenter(server.db, acme.companyId, { name: 'Marketing' });
    const kept = await createCostCenter(server.db, acme.companyId, { name: 'Vendas' });
    const category = await createCategory(server.db, acme.companyId);
    const classified = await createClassifiedTransactions(server.db, acme.companyId, {
      costCenterId: doomed.id,
      categoryId: category.id,
    });
    const other = await createClassifiedTransactions(server.db, acme.companyId, { costCenterId: kept.id });
    expect((await remove(acme, doomed.id)).response.status).toBe(204);
    const cleared = { custom_category_id: category.id, cost_center_id: null };
    expect(await classificationOf(server.db, classified)).toEqual({ banking: cleared, card: cleared });
    const untouched = { custom_category_id: null, cost_center_id: kept.id };
    expect(await classificationOf(server.db, other)).toEqual({ banking: untouched, card: untouched });
  });

  it('when it belongs to another company, then 404 and it stays, with its transactions', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const row = await createCostCenter(server.db, acme.companyId);
    const classified = await createClassifiedTransactions(server.db, acme.companyId, { costCenterId: row.id });
    expectError(await remove(globex, row.id), 404);
    expect((await get(acme, row.id)).response.status).toBe(200);
    expect((await classificationOf(server.db, classified)).banking.cost_center_id).toBe(row.id);
  });

  it('when the id is not a UUID, then 400', async () => {
    const acme = await server.newCompany();
    expectError(await remove(acme, '12345'), 400);
  });

  it('when the token lacks directory:write, then 403 and it stays', async () => {
    const reader = await server.newCompany({ scopes: ['directory:read'] });
    const row = await createCostCenter(server.db, reader.companyId);
    expectError(await remove(reader, row.id), 403);
    expect((await get(reader, row.id)).response.status).toBe(200);
  });
});
