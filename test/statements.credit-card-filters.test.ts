// The credit-card statement's banking-style filters (status, wasConciled, hasAttachments,
// categoryIds, costCenterIds) and platformCategoryIds, on the list, its summary and its export: each
// filter keeps exactly the records the whole list holds with it, the summary equals those records
// summed to the cent, the export holds them in the list's order; values outside the contract are 400
// naming the parameter.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, operations } from '../generated/openapi.js';
import { type FinanceClient, FinanceApiError } from '../client/index.js';
import { contract } from '../server/contract/index.js';
import { CARD_FILTERS } from '../server/areas/statements/store/credit-card-filters.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createCategory, createCostCenter, expectError } from './support/factories/directory.js';
import { attachUploadedFile, createCreditCardTransactions } from './support/factories/statements.js';
import { collect, expectedCell, financeOf, text } from './support/exports.js';
import { createRng } from '../server/lib/random.js';

type Item = components['schemas']['CreditCardTransaction'];
type Query = NonNullable<operations['listCreditCardTransactions']['parameters']['query']>;
type SummaryQuery = NonNullable<operations['getCreditCardSummary']['parameters']['query']>;
const PATH = '/statements/v1/credit-card';
const CARDS = ['c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e', '5e0d9b1a-7c3f-4e2d-8a6b-1f0e9d8c7b6a'];
const PLATFORM = [
  { code: 'SHOPPING', description: 'Compras' },
  { code: 'TRAVEL', description: 'Viagens' },
  { code: 'SOFTWARE', description: 'Software e serviços digitais' },
];

let server: TestServer;
let acme: TestCompany;
let finance: FinanceClient;
let all: Item[];
const ctx = { categories: [] as number[], costCenters: [] as string[] };

/** Every record for `q`, following nextPageStartKey. */
async function walk(q: Query): Promise<Item[]> {
  const rows: Item[] = [];
  let key: string | undefined;
  do {
    const { data, response } = await acme.api.GET(PATH, { params: { query: { ...q, nextPageStartKey: key } } });
    expect(response.status).toBe(200);
    rows.push(...data!.transactions);
    key = data!.nextPageStartKey;
  } while (key);
  return rows;
}

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  finance = financeOf(server, acme);
  const { db } = server;
  const id = acme.companyId;
  ctx.categories = [(await createCategory(db, id)).id, (await createCategory(db, id)).id];
  ctx.costCenters = [(await createCostCenter(db, id)).id, (await createCostCenter(db, id)).id];
  const rng = createRng(11);
  const base = Date.parse('2026-10-01T03:00:00.000Z');
  const rows = Array.from({ length: 90 }, (_, i) => {
    const platform = rng.pick(PLATFORM);
    const status = rng.pick([1, 2, 2, 3] as const);
    const usd = i % 9 === 0;
    const brl = rng.int(1, 250_000);
    return {
      // Two records share each instant, so ties are broken by id; 45 days, within the list's window.
      transaction_date: new Date(base + Math.floor(i / 2) * 24 * 3_600_000).toISOString(),
      card_id: CARDS[i % 2],
      status,
      conciled: status === 2 && rng.chance(0.4) ? 1 : 0,
      brl_amount_minor: brl,
      category_code: platform.code,
      category_description: platform.description,
      custom_category_id: rng.chance(0.6) ? rng.pick(ctx.categories) : null,
      cost_center_id: rng.chance(0.5) ? rng.pick(ctx.costCenters) : null,
      ...(usd ? { currency: 'USD', amount_minor: Math.round(brl / 5.4), exchange_rate: 5.4 } : { amount_minor: brl }),
      ...(!usd && i % 4 === 1 ? { installment_number: 1, installment_total: 3 } : {}),
    };
  });
  const ids = await createCreditCardTransactions(db, id, rows);
  for (const [i, txId] of ids.entries()) if (i % 3 === 0) await attachUploadedFile(db, id, { creditCardId: txId });
  // Another company's records never show up, whatever the filter.
  const globex = await server.newCompany();
  await createCreditCardTransactions(db, globex.companyId, rows.slice(0, 20));
  all = await walk({ limit: 100 });
}, 60_000);
afterAll(async () => server.close());

const ids = (items: Item[]) => items.map((t) => t.id);
const cents = (amount: number) => Math.round(amount * 100);

/** The summary's total computed from the records themselves, in cents then reais. */
function summed(items: Item[]) {
  const out = items.reduce((sum, t) => sum + cents(t.brlAmount), 0);
  return { count: items.length, in: 0, out: out / 100, net: -out / 100 };
}

const summary = async (query: SummaryQuery) => {
  const { data, response } = await acme.api.GET('/statements/v1/credit-card/summary', { params: { query } });
  expect(response.status).toBe(200);
  return data!;
};

const csvRows = (body: string, delimiter = ',') => parse(body, { delimiter, bom: true }) as string[][];

const october = { startDate: '2026-10-01', endDate: '2026-10-31' };
const inOctober = (t: Item) => t.transactionDate.slice(0, 7) === '2026-10';

const filters: Array<[string, () => Query, (t: Item) => boolean]> = [
  ['status 1 (cancelled)', () => ({ status: [1] }), (t) => t.status === 1],
  ['status 2', () => ({ status: [2] }), (t) => t.status === 2],
  ['status 3', () => ({ status: [3] }), (t) => t.status === 3],
  ['status 2,3', () => ({ status: [3, 2] }), (t) => t.status !== 1],
  ['wasConciled=true', () => ({ wasConciled: true }), (t) => t.conciliation.conciled],
  ['wasConciled=false', () => ({ wasConciled: false }), (t) => !t.conciliation.conciled],
  ['hasAttachments=true', () => ({ hasAttachments: true }), (t) => t.attachments.length > 0],
  ['hasAttachments=false', () => ({ hasAttachments: false }), (t) => t.attachments.length === 0],
  [
    'categoryIds (one)',
    () => ({ categoryIds: [ctx.categories[0]!] }),
    (t) => t.customCategory?.id === ctx.categories[0],
  ],
  ['categoryIds (two)', () => ({ categoryIds: ctx.categories }), (t) => t.customCategory !== null],
  [
    'costCenterIds, in capitals',
    () => ({ costCenterIds: [ctx.costCenters[1]!.toUpperCase()] }),
    (t) => t.costCenter?.id === ctx.costCenters[1],
  ],
  ['platformCategoryIds (one)', () => ({ platformCategoryIds: ['TRAVEL'] }), (t) => t.category.id === 'TRAVEL'],
  [
    'platformCategoryIds (two)',
    () => ({ platformCategoryIds: ['SOFTWARE', 'TRAVEL'] }),
    (t) => t.category.id !== 'SHOPPING',
  ],
  [
    "October's purchases not yet posted, with a receipt",
    () => ({ ...october, status: [3], hasAttachments: true }),
    (t) => inOctober(t) && t.status === 3 && t.attachments.length > 0,
  ],
  [
    'every filter at once',
    () => ({
      ...october,
      cardIds: [CARDS[0]!],
      types: ['PURCHASE', 'INSTALLMENT_PURCHASE'],
      status: [2, 3],
      wasConciled: false,
      hasAttachments: false,
      categoryIds: ctx.categories,
      costCenterIds: ctx.costCenters,
      platformCategoryIds: ['SHOPPING', 'TRAVEL'],
    }),
    (t) =>
      inOctober(t) &&
      t.cardId === CARDS[0] &&
      t.type !== 'INTERNATIONAL_PURCHASE' &&
      t.status !== 1 &&
      !t.conciliation.conciled &&
      t.attachments.length === 0 &&
      t.customCategory !== null &&
      t.costCenter !== null &&
      t.category.id !== 'SOFTWARE',
  ],
];

describe('listCreditCardTransactions, getCreditCardSummary and downloadCreditCardExport filters', () => {
  it.each(filters)(
    'when filtering by %s, then the list pages exactly those records, the summary sums them to the cent and the export holds them',
    async (_name, query, keep) => {
      const expected = all.filter(keep);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(all.length);
      const listed = await walk({ ...query(), limit: 7 });
      expect(ids(listed)).toEqual(ids(expected));
      expect((await summary(query())).total).toEqual(summed(expected));
      const [header, ...data] = csvRows(await text(await finance.exports.creditCard({ ...query(), format: 'csv' })));
      expect(data).toEqual(expected.map((item) => header!.map((column) => expectedCell(item, column))));
    },
  );

  // Every column filter of the store's table (store/credit-card-filters.ts): the records are exactly
  // those whose column holds the filter's values. A new entry of the table is tested here as declared.
  it.each(CARD_FILTERS.map(([name]) => name))(
    'when the table filter %s is given one value, and (a list) two, then exactly the records whose column has them',
    async (name) => {
      const [, filter] = CARD_FILTERS.find(([entry]) => entry === name)!;
      const stored = await server.db
        .selectFrom('credit_card_transactions')
        .select(['id', `${filter.column} as value`])
        .where('company_id', '=', acme.companyId)
        .where(filter.column, 'is not', null)
        .execute();
      const distinct = [...new Set(stored.map((row) => row.value as string | number))].sort();
      const samples = filter.kind === 'list' ? [distinct.slice(0, 1), distinct.slice(0, 2)] : distinct.map((v) => [v]);
      for (const values of samples) {
        const expected = stored.filter((row) => values.includes(row.value as never)).map((row) => row.id);
        expect(expected.length).toBeGreaterThan(0);
        const sent = filter.kind === 'list' ? values : values[0] === 1;
        const rows = await walk({ [name]: sent, limit: 100 } as Query);
        expect(ids(rows).sort(), `${name}=${JSON.stringify(sent)}`).toEqual(expected.sort());
      }
    },
  );

  it('when the contract lists a query parameter of the card list, then it is a table filter or one the handler reads itself', () => {
    const parameters = (contract().operation('listCreditCardTransactions')!.paramNames.query ?? []).sort();
    // The ERP's filters (metadata, syncStatus) are read by the handler for the list and the feed only.
    const erp = ['metadata', 'syncStatus'];
    const handled = ['cardIds', 'types', 'startDate', 'endDate', 'q', 'limit', 'nextPageStartKey', ...erp];
    expect(parameters).toEqual([...CARD_FILTERS.map(([name]) => name), ...handled].sort());
    const listOnly = ['limit', 'nextPageStartKey', ...erp];
    for (const operation of ['getCreditCardSummary', 'downloadCreditCardExport']) {
      const taken = contract().operation(operation)!.paramNames.query ?? [];
      expect(taken, operation).toEqual(expect.arrayContaining(parameters.filter((p) => !listOnly.includes(p))));
    }
  });

  it('when grouped by platformCategory, status, category or costCenter under a filter, then each group is those records summed to the cent', async () => {
    const keyOf = {
      platformCategory: (t: Item) => t.category.id,
      status: (t: Item) => String(t.status),
      category: (t: Item) => (t.customCategory ? String(t.customCategory.id) : null),
      costCenter: (t: Item) => t.costCenter?.id ?? null,
    };
    for (const [groupBy, key] of Object.entries(keyOf) as Array<[keyof typeof keyOf, (t: Item) => string | null]>) {
      for (const query of [{}, { status: [2, 3] as Query['status'] }, { wasConciled: false, hasAttachments: true }]) {
        const expected = all.filter((t) => {
          if (query.status && !query.status.includes(t.status)) return false;
          if ('wasConciled' in query && t.conciliation.conciled) return false;
          if ('hasAttachments' in query && t.attachments.length === 0) return false;
          return true;
        });
        const { total, groups } = await summary({ ...query, groupBy });
        expect(total).toEqual(summed(expected));
        const keys = [...new Set(expected.map(key))];
        expect(groups.map((g) => g.key).sort(), `${groupBy} ${JSON.stringify(query)}`).toEqual(keys.sort());
        for (const { label: _, ...group } of groups) {
          const members = expected.filter((t) => key(t) === group.key);
          expect(group).toEqual({ key: group.key, ...summed(members) });
        }
      }
    }
    const byPlatform = await summary({ groupBy: 'platformCategory' });
    expect(Object.fromEntries(byPlatform.groups.map((g) => [g.key, g.label]))).toEqual(
      Object.fromEntries(PLATFORM.map((p) => [p.code, p.description])),
    );
  });

  it('when a cursor was issued for some filters, then it pages only them: another status or flag is 400, the same values in another order are not', async () => {
    const key = (await acme.api.GET(PATH, { params: { query: { limit: 5, status: [2, 3] } } })).data!.nextPageStartKey!;
    const next = (query: Query) =>
      acme.api.GET(PATH, { params: { query: { limit: 5, ...query, nextPageStartKey: key } } });
    expect((await next({ status: [3, 2, 2] })).response.status).toBe(200);
    expectError(await next({ status: [2] }), 400);
    expectError(await next({ status: [2, 3], wasConciled: false }), 400);
    expectError(await next({ status: [2, 3], platformCategoryIds: ['TRAVEL'] }), 400);
  });

  it('when a filter is at the edge of its values, then the list, the summary and the export take it; beyond, 400 naming the parameter', async () => {
    const fifty = (make: (i: number) => string) => Array.from({ length: 50 }, (_, i) => make(i));
    const uuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const accepted = [
      'status=1,2,3',
      'wasConciled=true&hasAttachments=false',
      `categoryIds=${fifty((i) => String(i + 1)).join(',')}`,
      `costCenterIds=${fifty(uuid).join(',')}`,
      `platformCategoryIds=${fifty((i) => `CODE_${i}`).join(',')}`,
      `platformCategoryIds=${'X'.repeat(100)}`,
      'categoryIds=2147483647',
    ];
    const refused: Array<[string, string]> = [
      ['status=0', 'status'],
      ['status=4', 'status'],
      ['status=PENDING', 'status'],
      ['status=1,2,3,1', 'status'],
      ['wasConciled=yes', 'wasConciled'],
      ['hasAttachments=maybe', 'hasAttachments'],
      ['categoryIds=0', 'categoryIds'],
      ['categoryIds=abc', 'categoryIds'],
      ['categoryIds=2147483648', 'categoryIds'],
      [`categoryIds=${fifty((i) => String(i + 1)).join(',')},51`, 'categoryIds'],
      ['costCenterIds=abc', 'costCenterIds'],
      [`costCenterIds=${fifty(uuid).join(',')},${uuid(50)}`, 'costCenterIds'],
      ['platformCategoryIds=', 'platformCategoryIds'],
      [`platformCategoryIds=${'X'.repeat(101)}`, 'platformCategoryIds'],
      [`platformCategoryIds=${fifty((i) => `CODE_${i}`).join(',')},CODE_50`, 'platformCategoryIds'],
    ];
    const paths = [PATH, `${PATH}/summary`, '/statements/v1/exports/credit-card'];
    const get = (path: string, query: string) =>
      fetch(`${server.baseUrl}${path}?${path.includes('exports') ? 'format=csv&' : ''}${query}`, {
        headers: { Authorization: `Bearer ${acme.token}` },
      });
    for (const path of paths) {
      for (const query of accepted) {
        const res = await get(path, query);
        expect(res.status, `${path}?${query}`).toBe(200);
        await res.arrayBuffer();
      }
      for (const [query, param] of refused) {
        const res = await get(path, query);
        expect(res.status, `${path}?${query}`).toBe(400);
        const body = await res.json();
        expect(body, `${path}?${query}`).toMatchObject({ code: 400, param });
        expect(body.requestId).toBe(res.headers.get('X-Request-Id'));
      }
    }
    // Codes are compared exactly: a code in other capitals is another code.
    expect((await acme.api.GET(PATH, { params: { query: { platformCategoryIds: ['travel'] } } })).data).toEqual({
      transactions: [],
    });
    // The change feeds take their own filters (the account, the cards), none of these.
    const others = ['status=2', 'wasConciled=true', 'hasAttachments=true', 'categoryIds=1', `costCenterIds=${uuid(1)}`];
    for (const query of [...others, 'platformCategoryIds=TRAVEL', 'q=viagem'])
      expect((await get(`${PATH}/sync`, query)).status, query).toBe(400);
    for (const query of [...others, 'q=viagem'])
      expect((await get('/statements/v1/banking/sync', query)).status, query).toBe(400);
  });
});

describe('downloadCreditCardExport types and type column', () => {
  it('when the export is filtered by types, then the list’s records of those types, each with its type in the last column', async () => {
    for (const types of [['INTERNATIONAL_PURCHASE'], ['PURCHASE', 'INSTALLMENT_PURCHASE']] as const) {
      const items = await collect(finance.paginate.creditCardTransactions({ types: [...types], limit: 100 }));
      expect(items.length).toBeGreaterThan(0);
      expect(new Set(items.map((t) => t.type))).toEqual(new Set(types));
      const [header, ...data] = csvRows(
        await text(await finance.exports.creditCard({ types: [...types], format: 'csv' })),
      );
      expect(header!.at(-1)).toBe('type');
      expect(data.map((row) => [row[0], row.at(-1)])).toEqual(items.map((t) => [t.id, t.type]));
    }
  });

  it('when excel-br is asked for, then the type is in Portuguese under Tipo', async () => {
    const items = await collect(finance.paginate.creditCardTransactions({ limit: 100 }));
    const [header, ...data] = csvRows(
      await text(await finance.exports.creditCard({ format: 'csv', dialect: 'excel-br' })),
      ';',
    );
    expect(header!.at(-1)).toBe('Tipo');
    const words = {
      PURCHASE: 'Compra',
      INSTALLMENT_PURCHASE: 'Compra parcelada',
      INTERNATIONAL_PURCHASE: 'Compra internacional',
    };
    expect(data.map((row) => row.at(-1))).toEqual(items.map((t) => words[t.type]));
    expect(new Set(data.map((row) => row.at(-1))).size).toBe(3);
  });

  it('when the export spans more than the list’s 62 days, then every record of the period and filters', async () => {
    const query = { startDate: '2026-01-01', endDate: '2026-12-31', status: [2] as Query['status'] };
    const [, ...data] = csvRows(await text(await finance.exports.creditCard({ ...query, format: 'csv' })));
    expect(data.map((row) => row[0])).toEqual(ids(all.filter((t) => t.status === 2)));
  });

  it('when types holds an unknown type, then 400 before any byte', async () => {
    const error = await finance.exports
      .creditCard({ format: 'csv', types: ['REFUND' as never] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinanceApiError);
    expect((error as FinanceApiError).status).toBe(400);
  });
});
