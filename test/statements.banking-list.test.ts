import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import type { components, operations } from '../generated/openapi.js';
import { createCategory, createCostCenter, expectError } from './support/factories/directory.js';
import { createRoles, createUser } from './support/factories/users.js';
import {
  attachUploadedFile,
  createAccount,
  createBankingTransactions,
  type BankingOverrides,
} from './support/factories/statements.js';
import { createRng } from '../server/lib/random.js';
import { FILTERS } from '../server/areas/statements/store/banking-filters.js';
import { contract } from '../server/contract/index.js';

type Item = components['schemas']['BankingTransaction'];
type Query = NonNullable<operations['listBankingTransactions']['parameters']['query']>;
const PATH = '/statements/v1/banking';

let server: TestServer;
let acme: TestCompany;
let all: Item[];
const ctx = {
  accounts: [] as number[],
  categories: [] as number[],
  costCenters: [] as string[],
  emails: [] as string[],
};

const page = (q: Query) => acme.api.GET(PATH, { params: { query: q } });

/** Every row for `q`, following nextPageStartKey; checks each page's size. */
async function walk(q: Query, tenant = acme): Promise<Item[]> {
  const rows: Item[] = [];
  let key: string | undefined;
  for (let pages = 0; pages < 500; pages += 1) {
    const { data, response } = await tenant.api.GET(PATH, { params: { query: { ...q, nextPageStartKey: key } } });
    expect(response.status).toBe(200);
    rows.push(...data!.transactions);
    key = data!.nextPageStartKey;
    if (!key) return rows;
    expect(data!.transactions).toHaveLength(q.limit ?? 20);
  }
  throw new Error('too many pages');
}

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  const db = server.db;
  const id = acme.companyId;
  ctx.accounts = [await createAccount(db, id), await createAccount(db, id)];
  ctx.categories = [
    (await createCategory(db, id)).id,
    (await createCategory(db, id)).id,
    (await createCategory(db, id)).id,
  ];
  ctx.costCenters = [(await createCostCenter(db, id)).id, (await createCostCenter(db, id)).id];
  const roles = await createRoles(db, id);
  const users = [
    await createUser(db, id, { role_id: roles.employee.id, email: 'Ana.Lima@acme.com.br' }),
    await createUser(db, id, { role_id: roles.manager.id }),
  ];
  ctx.emails = users.map((u) => u.email);
  const rng = createRng(7);
  const base = Date.parse('2026-10-01T03:00:00.000Z');
  const rows: BankingOverrides[] = Array.from({ length: 150 }, (_, i) => {
    const brl = rng.pick([1500, 2500, 9999, rng.int(100, 500_000)]);
    const fee = rng.chance(0.2) ? rng.int(1, 900) : 0;
    return {
      // Several rows share an instant, so ties are broken by id.
      transaction_date: new Date(base + Math.floor(i / 3) * 7 * 3_600_000 + (i % 3 === 2 ? 60_000 : 0)).toISOString(),
      status: rng.pick([1, 2, 2, 2, 3] as const),
      conciled: 0,
      brl_amount_minor: brl,
      fee_service_amount_minor: fee,
      total_amount_minor: brl + fee,
      custom_category_id: rng.chance(0.6) ? rng.pick(ctx.categories) : null,
      cost_center_id: rng.chance(0.5) ? rng.pick(ctx.costCenters) : null,
      user_id: rng.chance(0.7) ? rng.pick(users).id : null,
    };
  });
  const [first, second] = ctx.accounts as [number, number];
  const ids = [
    ...(await createBankingTransactions(db, id, first, rows.slice(0, 90))),
    ...(await createBankingTransactions(db, id, second, rows.slice(90))),
  ];
  for (const [i, txId] of ids.entries()) {
    if (i % 4 === 0 && rows[i]!.status === 2)
      await db.updateTable('banking_transactions').set({ conciled: 1 }).where('id', '=', txId).execute();
    if (i % 5 === 0) await attachUploadedFile(db, id, { bankingId: txId });
  }
  // Another company's rows never show up.
  const globex = await server.newCompany();
  await createBankingTransactions(db, globex.companyId, await createAccount(db, globex.companyId), rows.slice(0, 40));
  all = await walk({ limit: 50 });
}, 60_000);
afterAll(async () => server.close());

const ids = (items: Item[]) => items.map((t) => t.id);
const localDay = (t: Item) => t.transactionDate.slice(0, 10);

describe('listBankingTransactions', () => {
  it("when called without parameters, then 20 rows, newest first, with a nextPageStartKey, and only the company's rows", async () => {
    const { data, response } = await acme.api.GET(PATH);
    expect(response.status).toBe(200);
    expect(data!.transactions).toHaveLength(20);
    expect(data!.nextPageStartKey).toEqual(expect.any(String));
    expect(all).toHaveLength(150);
    expect(new Set(all.map((t) => t.companyId))).toEqual(new Set([acme.companyId]));
    expect(ids(data!.transactions)).toEqual(ids(all.slice(0, 20)));
  });

  it.each([
    ['transactionDate:desc', (a: Item, b: Item) => b.transactionDate.localeCompare(a.transactionDate) || b.id - a.id],
    ['transactionDate:asc', (a: Item, b: Item) => a.transactionDate.localeCompare(b.transactionDate) || a.id - b.id],
    ['brlAmount:desc', (a: Item, b: Item) => b.brlAmount - a.brlAmount || b.id - a.id],
    ['brlAmount:asc', (a: Item, b: Item) => a.brlAmount - b.brlAmount || a.id - b.id],
    [
      'totalTransactionAmount:desc',
      (a: Item, b: Item) => b.totalTransactionAmount - a.totalTransactionAmount || b.id - a.id,
    ],
    [
      'totalTransactionAmount:asc',
      (a: Item, b: Item) => a.totalTransactionAmount - b.totalTransactionAmount || a.id - b.id,
    ],
  ])('when paging with sorting %s, then every row comes exactly once, in order', async (sorting, order) => {
    const rows = await walk({ sorting: sorting as Query['sorting'], limit: 7 });
    expect(rows).toHaveLength(150);
    expect(new Set(ids(rows)).size).toBe(150);
    expect(ids(rows)).toEqual(ids([...all].sort(order)));
  });

  const filters: Array<[string, () => Query, (t: Item) => boolean]> = [
    ['accountId', () => ({ accountId: ctx.accounts[1] }), (t) => t.accountId === ctx.accounts[1]],
    [
      'a date range',
      () => ({ startDate: '2026-10-10', endDate: '2026-10-20' }),
      (t) => localDay(t) >= '2026-10-10' && localDay(t) <= '2026-10-20',
    ],
    ['a single day', () => ({ startDate: '2026-10-05', endDate: '2026-10-05' }), (t) => localDay(t) === '2026-10-05'],
    ['hasAttachments=true', () => ({ hasAttachments: true }), (t) => t.attachments.length > 0],
    ['hasAttachments=false', () => ({ hasAttachments: false }), (t) => t.attachments.length === 0],
    ['wasConciled=true', () => ({ wasConciled: true }), (t) => t.conciliation.conciled],
    ['wasConciled=false', () => ({ wasConciled: false }), (t) => !t.conciliation.conciled],
    [
      'categoryIds (two)',
      () => ({ categoryIds: ctx.categories.slice(0, 2) }),
      (t) => ctx.categories.slice(0, 2).includes(t.customCategory?.id ?? -1),
    ],
    ['costCenterIds', () => ({ costCenterIds: [ctx.costCenters[0]!] }), (t) => t.costCenter?.id === ctx.costCenters[0]],
    [
      'responsibleEmail, any case',
      () => ({ responsibleEmail: 'ana.LIMA@acme.com.br' }),
      (t) => t.user?.email === 'Ana.Lima@acme.com.br',
    ],
    ['status 1,3', () => ({ status: [1, 3] }), (t) => t.status !== 2],
    ['status 2', () => ({ status: [2] }), (t) => t.status === 2],
    ['amountEq', () => ({ amountEq: 25 }), (t) => t.brlAmount === 25],
    ['amountGt', () => ({ amountGt: 99.99 }), (t) => t.brlAmount > 99.99],
    ['amountLt', () => ({ amountLt: 25 }), (t) => t.brlAmount < 25],
    [
      'status + categories + costCenters + wasConciled',
      () => ({ status: [2, 3], categoryIds: ctx.categories, costCenterIds: ctx.costCenters, wasConciled: false }),
      (t) => t.status !== 1 && t.customCategory !== null && t.costCenter !== null && !t.conciliation.conciled,
    ],
    [
      'every filter at once',
      () => ({
        accountId: ctx.accounts[0],
        startDate: '2026-10-01',
        endDate: '2026-11-30',
        hasAttachments: false,
        wasConciled: false,
        categoryIds: ctx.categories.slice(0, 2),
        costCenterIds: ctx.costCenters,
        responsibleEmail: ctx.emails[0],
        status: [2, 3],
        amountGt: 10,
      }),
      (t) =>
        t.accountId === ctx.accounts[0] &&
        t.attachments.length === 0 &&
        !t.conciliation.conciled &&
        ctx.categories.slice(0, 2).includes(t.customCategory?.id ?? -1) &&
        t.costCenter !== null &&
        t.user?.email === ctx.emails[0] &&
        t.status !== 1 &&
        t.brlAmount > 10,
    ],
  ];

  it.each(filters)(
    'when filtering by %s, then the same rows as filtering the whole list, in every sorting',
    async (_name, query, keep) => {
      const expected = all.filter(keep);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(all.length);
      expect(ids(await walk({ ...query(), limit: 6 }))).toEqual(ids(expected));
      const byAmount = await walk({ ...query(), limit: 9, sorting: 'brlAmount:asc' });
      expect(ids(byAmount)).toEqual(ids([...expected].sort((a, b) => a.brlAmount - b.brlAmount || a.id - b.id)));
      const byTotal = await walk({ ...query(), limit: 8, sorting: 'totalTransactionAmount:desc' });
      expect(ids(byTotal)).toEqual(
        ids([...expected].sort((a, b) => b.totalTransactionAmount - a.totalTransactionAmount || b.id - a.id)),
      );
    },
  );

  // Every column filter of the store's table (store/banking-filters.ts), under every order and page
  // by page: the rows are exactly those the column holds the filter's values in. A new entry of the
  // table is tested here as it is declared.
  const columnFilters = FILTERS.filter(([, filter]) => filter.param !== undefined);
  it.each(
    columnFilters.flatMap(([name]) =>
      ['transactionDate:desc', 'brlAmount:asc', 'totalTransactionAmount:desc'].map(
        (sorting) => [name, sorting] as const,
      ),
    ),
  )(
    'when the table filter %s is given one value, and (a list) two, under %s, then every page holds exactly the rows whose column has them',
    async (name, sorting) => {
      const [, filter] = FILTERS.find(([entry]) => entry === name)!;
      const column = filter.column;
      const stored = await server.db
        .selectFrom('banking_transactions')
        .select(['id', `${column} as value`])
        .where('company_id', '=', acme.companyId)
        .where(column, 'is not', null)
        .orderBy('id')
        .execute();
      const distinct = [...new Set(stored.map((row) => row.value as string | number))];
      const asSent = (value: string | number) => (filter.kind === 'flag' ? value === 1 : value);
      const samples = filter.kind === 'list' ? [distinct.slice(0, 1), distinct.slice(0, 2)] : distinct.map((v) => [v]);
      for (const values of samples) {
        const expected = stored.filter((row) => values.includes(row.value as never)).map((row) => row.id);
        expect(expected.length).toBeGreaterThan(0);
        const sent = filter.kind === 'list' ? values.map(asSent) : asSent(values[0]!);
        const rows = await walk({ [filter.param!]: sent, sorting, limit: 7 } as Query);
        expect(
          ids(rows).sort((a, b) => a - b),
          `${name}=${JSON.stringify(sent)}`,
        ).toEqual(expected);
      }
    },
  );

  it('when the contract lists a query parameter of the banking list, then it is a table filter or one the handler reads itself', () => {
    const parameters = (contract().operation('listBankingTransactions')!.paramNames.query ?? []).sort();
    const fromTable = FILTERS.flatMap(([, filter]) => (filter.param ? [filter.param] : []));
    const handled = [
      'startDate',
      'endDate',
      'amountEq',
      'amountGt',
      'amountLt',
      'responsibleEmail',
      'sorting',
      'q',
      'metadata',
      'syncStatus',
      'limit',
      'nextPageStartKey',
    ];
    expect(parameters).toEqual([...fromTable, ...handled].sort());
  });

  it('when a filter matches nothing or an unknown email, then an empty page without nextPageStartKey', async () => {
    expect((await page({ responsibleEmail: 'nobody@acme.com.br' })).data).toEqual({ transactions: [] });
    expect((await page({ accountId: 999_999 })).data).toEqual({ transactions: [] });
    expect((await page({ startDate: '2020-01-01', endDate: '2020-01-31' })).data).toEqual({ transactions: [] });
  });

  it('when limit is 1 or 50, then that many rows; 0, 51 or not a number, then 400', async () => {
    expect((await page({ limit: 1 })).data!.transactions).toHaveLength(1);
    expect((await page({ limit: 50 })).data!.transactions).toHaveLength(50);
    expectError(await page({ limit: 0 }), 400);
    expectError(await page({ limit: 51 }), 400);
    expectError(await acme.api.GET(PATH, { params: { query: { limit: 'ten' as unknown as number } } }), 400);
  });

  it('when the last page is exactly full, then it has no nextPageStartKey', async () => {
    const { data } = await page({ limit: 50, startDate: '2026-09-01', endDate: '2026-12-31' });
    const second = await page({
      limit: 50,
      startDate: '2026-09-01',
      endDate: '2026-12-31',
      nextPageStartKey: data!.nextPageStartKey,
    });
    const third = await page({
      limit: 50,
      startDate: '2026-09-01',
      endDate: '2026-12-31',
      nextPageStartKey: second.data!.nextPageStartKey,
    });
    expect(third.data!.transactions).toHaveLength(50);
    expect(third.data).not.toHaveProperty('nextPageStartKey');
  });

  it.each<[string, Query]>([
    ['startDate alone', { startDate: '2026-10-01' }],
    ['endDate alone', { endDate: '2026-10-01' }],
    ['endDate before startDate', { startDate: '2026-10-02', endDate: '2026-10-01' }],
    ['amountEq with amountGt', { amountEq: 10, amountGt: 5 }],
    ['amountGt with amountLt', { amountGt: 5, amountLt: 10 }],
    ['an unknown sorting field', { sorting: 'description:asc' as Query['sorting'] }],
    ['a sorting without order', { sorting: 'brlAmount' as Query['sorting'] }],
    ['an amount with 3 decimals', { amountGt: 10.005 }],
    ['a status outside 1..3', { status: [4] as unknown as Query['status'] }],
    ['a malformed date', { startDate: '2026-13-01', endDate: '2026-13-02' }],
    ['a cost center that is not a uuid', { costCenterIds: ['abc'] }],
  ])('when %s, then 400', async (_name, query) => {
    expectError(await page(query), 400);
  });

  it('when an unknown parameter is sent, then 400', async () => {
    expectError(await acme.api.GET(PATH, { params: { query: { accountID: 3 } as unknown as Query } }), 400);
  });

  it('when nextPageStartKey is tampered with, or reused with other filters or sorting, then 400', async () => {
    const key = (await page({ limit: 5, status: [2] })).data!.nextPageStartKey!;
    const [payload, signature] = key.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ k: ['2030-01-01T00:00:00.000Z', 1] })).toString('base64url');
    expectError(await page({ limit: 5, status: [2], nextPageStartKey: `${forged}.${signature}` }), 400);
    expectError(await page({ limit: 5, status: [2], nextPageStartKey: `${payload}.${signature.slice(1)}A` }), 400);
    expectError(await page({ limit: 5, status: [2], nextPageStartKey: 'garbage' }), 400);
    expectError(await page({ limit: 5, status: [2, 3], nextPageStartKey: key }), 400);
    expectError(await page({ limit: 5, status: [2], sorting: 'transactionDate:asc', nextPageStartKey: key }), 400);
    // The same filters in another spelling, or another page size, keep the cursor valid.
    expect((await page({ limit: 7, status: [2, 2], nextPageStartKey: key })).response.status).toBe(200);
  });

  it('when another company pages with a cursor issued to this one, then 400 and none of the rows', async () => {
    const globex = await server.newCompany();
    const key = (await page({ limit: 5 })).data!.nextPageStartKey!;
    expectError(await globex.api.GET(PATH, { params: { query: { limit: 5, nextPageStartKey: key } } }), 400);
  });

  it('when the token lacks statements:read, then 403; without a token, 401', async () => {
    const writer = await server.newCompany({ scopes: ['statements:write'] });
    expectError(await writer.api.GET(PATH), 403);
    expectError(await server.anonymous.GET(PATH), 401);
  });

  it('when a transaction has everything, then every field of the contract is present', async () => {
    const item = all.find((t) => t.attachments.length > 0 && t.customCategory && t.costCenter && t.user)!;
    expect(item).toMatchObject({
      transactionType: { id: 1, description: 'Compra no cartão', icon: 'credit-card', subType: 'DEBIT' },
      showReceipt: item.status === 2,
      statusDescription: { 1: 'CANCELED', 2: 'PROCESSED', 3: 'PENDING' }[item.status],
      category: { id: 'FOOD', description: 'Alimentação' },
      requesterUser: null,
    });
    expect(item.transactionDate).toMatch(/^2026-1[01]-\d\dT\d\d:\d\d:\d\d-03:00$/);
    expect(item.attachments[0]!._links.content.href).toBe(`/attachments/v1/content/${item.attachments[0]!.id}`);
  });
});
