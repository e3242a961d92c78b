import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  classificationOf,
  createCategory,
  createClassifiedTransactions,
  expectError,
  type CreatedCategory,
} from './support/factories/directory.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const PATH = '/categories/v1/categories';

const remove = (tenant: TestCompany, ids: number[], moveTo?: number) =>
  tenant.api.DELETE(PATH, { params: { query: { ids, ...(moveTo === undefined ? {} : { moveTo }) } } });
/** The query string as sent, for requests the typed client cannot express. */
const removeRaw = async (tenant: TestCompany, query: string) => {
  const response = await fetch(`${server.baseUrl}${PATH}${query}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${tenant.token}` },
  });
  return { response, error: response.status === 204 ? undefined : await response.json() };
};
const get = (tenant: TestCompany, id: number) => tenant.api.GET(`${PATH}/{id}`, { params: { path: { id } } });
const exists = async (tenant: TestCompany, category: CreatedCategory) =>
  (await get(tenant, category.id)).response.status === 200;
const establishmentsOf = async (tenant: TestCompany, category: CreatedCategory) =>
  ((await get(tenant, category.id)).data?.establishments ?? []).map((e) => e.id);

describe('deleteCategories', () => {
  it('when CUSTOM categories without establishments are deleted, then 204, they are gone and their names are free', async () => {
    const acme = await server.newCompany();
    const travel = await createCategory(server.db, acme.companyId, { name: 'Viagens' });
    const meals = await createCategory(server.db, acme.companyId, { name: 'Refeições' });
    const kept = await createCategory(server.db, acme.companyId, { name: 'Hospedagem' });
    expect((await remove(acme, [travel.id, meals.id])).response.status).toBe(204);
    expect([await exists(acme, travel), await exists(acme, meals), await exists(acme, kept)]).toEqual([
      false,
      false,
      true,
    ]);
    expect((await acme.api.POST(PATH, { body: { name: 'viagens' } })).response.status).toBe(201);
  });

  it('when establishments are linked and moveTo is absent, then 422 and nothing is deleted', async () => {
    const acme = await server.newCompany();
    const empty = await createCategory(server.db, acme.companyId);
    const linked = await createCategory(server.db, acme.companyId, { establishments: 2 });
    const details = expectError(await remove(acme, [empty.id, linked.id]), 422);
    expect(details).toEqual([`category ${linked.id} has 2 linked establishments`]);
    expect([await exists(acme, empty), await exists(acme, linked)]).toEqual([true, true]);
    expect(await establishmentsOf(acme, linked)).toEqual(linked.establishmentIds);
  });

  it('when establishments are linked and moveTo is sent, then 204 and they move to moveTo with their new category id', async () => {
    const acme = await server.newCompany();
    const a = await createCategory(server.db, acme.companyId, { establishments: 2 });
    const b = await createCategory(server.db, acme.companyId, { establishments: 1 });
    const target = await createCategory(server.db, acme.companyId, {
      name: 'Combustível',
      type: 'DEFAULT',
      establishments: 1,
    });
    server.clock.advance(1_000);
    expect((await remove(acme, [a.id, b.id], target.id)).response.status).toBe(204);
    const { data } = await get(acme, target.id);
    const moved = [...a.establishmentIds, ...b.establishmentIds];
    expect(data?.establishments.map((e) => e.id)).toEqual([...target.establishmentIds, ...moved].sort((x, y) => x - y));
    for (const e of data?.establishments ?? []) expect(e.establishmentCategoryId).toBe(target.id);
    const movedNow = (data?.establishments ?? []).filter((e) => moved.includes(e.id));
    for (const e of movedNow) expect(e.updatedAt).toBe(server.clock.now().toISOString());
    expect([await exists(acme, a), await exists(acme, b)]).toEqual([false, false]);
  });

  it('when transactions use the deleted categories and moveTo is sent, then they move to moveTo', async () => {
    const acme = await server.newCompany();
    const doomed = await createCategory(server.db, acme.companyId, { establishments: 1 });
    const target = await createCategory(server.db, acme.companyId);
    const other = await createCategory(server.db, acme.companyId);
    const classified = await createClassifiedTransactions(server.db, acme.companyId, { categoryId: doomed.id });
    const untouched = await createClassifiedTransactions(server.db, acme.companyId, { categoryId: other.id });
    expect((await remove(acme, [doomed.id], target.id)).response.status).toBe(204);
    const moved = { custom_category_id: target.id, cost_center_id: null };
    expect(await classificationOf(server.db, classified)).toEqual({ banking: moved, card: moved });
    const same = { custom_category_id: other.id, cost_center_id: null };
    expect(await classificationOf(server.db, untouched)).toEqual({ banking: same, card: same });
  });

  it('when transactions use the deleted categories and moveTo is absent, then their category is cleared', async () => {
    const acme = await server.newCompany();
    const doomed = await createCategory(server.db, acme.companyId);
    const classified = await createClassifiedTransactions(server.db, acme.companyId, { categoryId: doomed.id });
    expect((await remove(acme, [doomed.id])).response.status).toBe(204);
    const cleared = { custom_category_id: null, cost_center_id: null };
    expect(await classificationOf(server.db, classified)).toEqual({ banking: cleared, card: cleared });
  });

  it('when one of the ids is DEFAULT, then 409 and nothing changes: no deletion, no establishment or transaction moved', async () => {
    const acme = await server.newCompany();
    const custom = await createCategory(server.db, acme.companyId, { establishments: 2 });
    const builtIn = await createCategory(server.db, acme.companyId, { type: 'DEFAULT' });
    const target = await createCategory(server.db, acme.companyId);
    const classified = await createClassifiedTransactions(server.db, acme.companyId, { categoryId: custom.id });
    expect(expectError(await remove(acme, [custom.id, builtIn.id], target.id), 409)).toEqual([
      `category ${builtIn.id} is DEFAULT`,
    ]);
    expect([await exists(acme, custom), await exists(acme, builtIn)]).toEqual([true, true]);
    expect(await establishmentsOf(acme, custom)).toEqual(custom.establishmentIds);
    expect(await establishmentsOf(acme, target)).toEqual([]);
    expect((await classificationOf(server.db, classified)).banking.custom_category_id).toBe(custom.id);
  });

  it('when an id is absent or of another company, then 404 naming it, and nothing is deleted', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const mine = await createCategory(server.db, acme.companyId);
    const theirs = await createCategory(server.db, globex.companyId);
    expect(expectError(await remove(acme, [mine.id, theirs.id, 2147483647]), 404)).toEqual([
      `category ${theirs.id} not found`,
      'category 2147483647 not found',
    ]);
    expect(await exists(acme, mine)).toBe(true);
    expect(await exists(globex, theirs)).toBe(true);
    expectError(await remove(globex, [mine.id]), 404);
  });

  it('when moveTo is one of ids, then 400 and nothing is deleted', async () => {
    const acme = await server.newCompany();
    const a = await createCategory(server.db, acme.companyId, { establishments: 1 });
    const b = await createCategory(server.db, acme.companyId);
    expectError(await remove(acme, [a.id, b.id], b.id), 400);
    expect([await exists(acme, a), await exists(acme, b)]).toEqual([true, true]);
  });

  it('when moveTo does not exist or is of another company, then 400 and nothing is deleted', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const a = await createCategory(server.db, acme.companyId, { establishments: 1 });
    const theirs = await createCategory(server.db, globex.companyId);
    expectError(await remove(acme, [a.id], 2147483647), 400);
    expectError(await remove(acme, [a.id], theirs.id), 400);
    expect(await establishmentsOf(acme, a)).toEqual(a.establishmentIds);
  });

  it('when 100 ids are sent, then 204; at 101, 400', async () => {
    const acme = await server.newCompany();
    const ids: number[] = [];
    for (let i = 0; i < 101; i += 1) ids.push((await createCategory(server.db, acme.companyId)).id);
    expectError(await remove(acme, ids), 400);
    expect((await remove(acme, ids.slice(0, 100))).response.status).toBe(204);
    expect((await acme.api.GET(PATH)).data?.items.map((c) => c.id)).toEqual([ids[100]]);
  });

  it.each([
    ['no ids', ''],
    ['an empty ids', '?ids='],
    ['a repeated id', '?ids=7,7'],
    ['an id of 0', '?ids=0'],
    ['an id that is not a number', '?ids=abc'],
    ['an id beyond int32', '?ids=2147483648'],
    ['a moveTo of 0', '?ids=7&moveTo=0'],
    ['an unknown parameter', '?ids=7&force=true'],
  ])('when the query has %s, then 400', async (_case, query) => {
    const acme = await server.newCompany();
    expectError(await removeRaw(acme, query), 400);
  });

  it('when two requests delete the same category at once, then one 204 and one 404', async () => {
    const acme = await server.newCompany();
    const category = await createCategory(server.db, acme.companyId);
    const results = await Promise.all([remove(acme, [category.id]), remove(acme, [category.id])]);
    expect(results.map((r) => r.response.status).sort()).toEqual([204, 404]);
  });

  it("when two requests each delete the other's moveTo at once, then one wins and no establishment is lost", async () => {
    const acme = await server.newCompany();
    const a = await createCategory(server.db, acme.companyId, { establishments: 1 });
    const b = await createCategory(server.db, acme.companyId, { establishments: 1 });
    const results = await Promise.all([remove(acme, [a.id], b.id), remove(acme, [b.id], a.id)]);
    expect(results.map((r) => r.response.status).sort()).toEqual([204, 400]);
    const survivor = (await exists(acme, a)) ? a : b;
    expect(await establishmentsOf(acme, survivor)).toEqual([...a.establishmentIds, ...b.establishmentIds]);
  });

  it('when the token lacks directory:write, then 403 and nothing is deleted', async () => {
    const reader = await server.newCompany({ scopes: ['directory:read'] });
    const category = await createCategory(server.db, reader.companyId);
    expectError(await remove(reader, [category.id]), 403);
    expect(await exists(reader, category)).toBe(true);
  });
});
