import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { seedDirectory } from '../server/sandbox/seed/directory.js';
import { createRng } from '../server/lib/random.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const seed = (tenant: TestCompany, s: number) =>
  seedDirectory(server.db, { companyId: tenant.companyId, rng: createRng(s), clock: server.clock, transactions: 0 });

/** The company's directory as the API shows it, without ids. */
async function directory(tenant: TestCompany) {
  const categories =
    (await tenant.api.GET('/categories/v1/categories', { params: { query: { limit: 100 } } })).data?.items ?? [];
  const suppliers =
    (await tenant.api.GET('/suppliers/v1/suppliers', { params: { query: { limit: 100 } } })).data?.items ?? [];
  const costCenters = (await tenant.api.GET('/cost-centers/v1/cost-centers')).data?.items ?? [];
  return {
    categories: categories.map((c) => ({
      name: c.name,
      type: c.type.type,
      establishments: c.establishments.map((e) => e.name),
    })),
    suppliers: suppliers.map((s) => ({ name: s.name, type: s.type.type })),
    costCenters: costCenters.map((c) => ({ name: c.name, responsible: c.responsible?.name })),
  };
}

describe('seedDirectory', () => {
  it('when a company is seeded, then it has DEFAULT categories with establishments, DEFAULT and CUSTOM suppliers, and cost centers', async () => {
    const acme = await server.newCompany();
    await seed(acme, 42);
    const { categories, suppliers, costCenters } = await directory(acme);
    const defaults = categories.filter((c) => c.type === 'DEFAULT');
    expect(defaults.length).toBeGreaterThanOrEqual(10);
    expect(defaults.find((c) => c.name === 'Combustível')?.establishments).toContain('Posto Ipiranga Av. Paulista');
    expect(categories.some((c) => c.type === 'CUSTOM' && c.establishments.length > 0)).toBe(true);
    expect(suppliers.filter((s) => s.type === 'DEFAULT').length).toBeGreaterThanOrEqual(10);
    expect(suppliers.filter((s) => s.type === 'CUSTOM').length).toBeGreaterThanOrEqual(4);
    expect(costCenters.length).toBeGreaterThanOrEqual(6);
  });

  it('when two companies are seeded with one seed, then they get the same directory; another seed differs', async () => {
    const [a, b, c] = [await server.newCompany(), await server.newCompany(), await server.newCompany()];
    await seed(a, 7);
    await seed(b, 7);
    await seed(c, 8);
    expect(await directory(a)).toEqual(await directory(b));
    expect(await directory(a)).not.toEqual(await directory(c));
  });

  it('when a company is seeded twice, then nothing is duplicated', async () => {
    const acme = await server.newCompany();
    await seed(acme, 3);
    const once = await directory(acme);
    await seed(acme, 4);
    expect(await directory(acme)).toEqual(once);
  });
});
