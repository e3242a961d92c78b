// The banking page query is prepared once per shape and bound per request (server/db/prepared.ts):
// requests of the same shape with other values (another company, other ids in a list, another
// number of ids) must each get exactly their own rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { operations } from '../generated/openapi.js';
import { createCategory, createCostCenter } from './support/factories/directory.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

type Query = NonNullable<operations['listBankingTransactions']['parameters']['query']>;

let server: TestServer;

interface Tenant {
  company: TestCompany;
  costCenters: string[];
  categories: number[];
  /** Transaction ids by [cost center index, category index]. */
  rows: Map<string, number>;
}

async function tenant(): Promise<Tenant> {
  const company = await server.newCompany();
  const { db } = server;
  const id = company.companyId;
  const account = await createAccount(db, id);
  const costCenters = [
    (await createCostCenter(db, id)).id,
    (await createCostCenter(db, id)).id,
    (await createCostCenter(db, id)).id,
  ];
  const categories = [
    (await createCategory(db, id)).id,
    (await createCategory(db, id)).id,
    (await createCategory(db, id)).id,
  ];
  const cells = costCenters.flatMap((cc, i) => categories.map((cat, j) => ({ i, j, cc, cat })));
  const ids = await createBankingTransactions(
    db,
    id,
    account,
    cells.map(({ cc, cat }, n) => ({
      cost_center_id: cc,
      custom_category_id: cat,
      brl_amount_minor: 1_000 + n,
      transaction_date: `2026-10-${String(10 + n).padStart(2, '0')}T12:00:00.000Z`,
    })),
  );
  const rows = new Map(cells.map(({ i, j }, n) => [`${i},${j}`, ids[n]!]));
  return { company, costCenters, categories, rows };
}

async function ids(t: Tenant, query: Query): Promise<number[]> {
  const { data, response } = await t.company.api.GET('/statements/v1/banking', { params: { query } });
  expect(response.status).toBe(200);
  return data!.transactions.map((tx) => tx.id).sort((a, b) => a - b);
}

/** The ids of `t`'s rows whose cost center index is in `ccs` and category index in `cats`. */
const expected = (t: Tenant, ccs: number[], cats: number[]) =>
  ccs.flatMap((i) => cats.map((j) => t.rows.get(`${i},${j}`)!)).sort((a, b) => a - b);

let acme: Tenant;
let globex: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  acme = await tenant();
  globex = await tenant();
});
afterAll(() => server.close());

describe('listBankingTransactions, prepared once per shape', () => {
  it('when two companies ask the same shape with their own ids in turn, then each gets only its own rows', async () => {
    for (const t of [acme, globex, acme]) {
      const query = { costCenterIds: t.costCenters.slice(0, 2), categoryIds: t.categories.slice(1, 3) };
      expect(await ids(t, query)).toEqual(expected(t, [0, 1], [1, 2]));
    }
  });

  it('when a list changes its members or its length, then the rows follow the list', async () => {
    const cases: Array<[number[], number[]]> = [
      [
        [0, 1],
        [0, 1],
      ],
      [
        [1, 2],
        [0, 2],
      ],
      [
        [0, 1, 2],
        [0, 1, 2],
      ],
      [[2, 0], [1]],
    ];
    for (const [ccs, cats] of cases) {
      const query = {
        costCenterIds: ccs.map((i) => acme.costCenters[i]!),
        categoryIds: cats.map((j) => acme.categories[j]!),
      };
      expect(await ids(acme, query)).toEqual(expected(acme, ccs, cats));
    }
  });

  it('when an amount order is driven by a list, then each request binds its own arms', async () => {
    for (const [t, ccs] of [
      [acme, [0, 2]],
      [globex, [1, 2]],
      [acme, [1]],
    ] as const) {
      const query: Query = { sorting: 'brlAmount:desc', costCenterIds: ccs.map((i) => t.costCenters[i]!) };
      expect(await ids(t, query)).toEqual(expected(t, [...ccs], [0, 1, 2]));
    }
  });

  it("when a company names another company's cost center, then it gets nothing", async () => {
    expect(await ids(acme, { costCenterIds: [globex.costCenters[0]!, globex.costCenters[1]!] })).toEqual([]);
  });
});
