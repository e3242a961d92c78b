// The banking list's two plans for an amount order with only range filters (banking-plan.ts picks one
// from a bounded count): walking the amount index and sorting the range must page to the same rows.
// Small test data always picks 'sort', so both plans are forced here against a reference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { createAccount, createBankingTransactions, type BankingOverrides } from './support/factories/statements.js';
import { createRng } from '../server/lib/random.js';
import { loadBankingPage } from '../server/areas/statements/store/banking-page.js';
import type {
  BankingFilters,
  BankingPageQuery,
  BankingSortField,
  SortDirection,
} from '../server/areas/statements/store/banking-types.js';

let server: TestServer;
let companyId: string;
type Row = { id: number; transaction_date: string; brl_amount_minor: number; total_amount_minor: number };
let rows: Row[];

beforeAll(async () => {
  server = await startTestServer();
  companyId = (await server.newCompany()).companyId;
  const account = await createAccount(server.db, companyId);
  const rng = createRng(11);
  const base = Date.parse('2026-09-01T03:00:00.000Z');
  const data: BankingOverrides[] = Array.from({ length: 120 }, (_, i) => {
    const brl = rng.pick([1000, 2500, rng.int(100, 90_000)]);
    // Mostly total ≥ brl (IOF, fees); a few below it (a discount), which the total order handles apart.
    const total = i % 17 === 0 ? Math.max(1, brl - rng.int(1, 500)) : brl + (rng.chance(0.3) ? rng.int(1, 900) : 0);
    return {
      transaction_date: new Date(base + Math.floor(i / 2) * 11 * 3_600_000).toISOString(),
      brl_amount_minor: brl,
      total_amount_minor: total,
    };
  });
  // Around the amount filters' X (2500): rows whose fees lift the total to X or above while the BRL
  // amount stays below it (one far above, as a large fee would), totals exactly at X, and rows with
  // a total below the BRL amount on either side of X.
  const edges: Array<[number, number]> = [
    [100, 400_000],
    [2_499, 2_500],
    [2_400, 2_500],
    [2_400, 2_500],
    [0, 2_600],
    [2_499, 2_499],
    [2_500, 2_500],
    [2_500, 2_400],
    [2_600, 2_000],
    [2_400, 2_300],
    [2_499, 90_000],
    [2_501, 2_501],
  ];
  for (const [i, [brl, total]] of edges.entries()) {
    data.push({
      transaction_date: new Date(base + (i * 5 + 3) * 24 * 3_600_000).toISOString(),
      brl_amount_minor: brl,
      total_amount_minor: total,
    });
  }
  await createBankingTransactions(server.db, companyId, account, data);
  rows = await server.db
    .selectFrom('banking_transactions')
    .select(['id', 'transaction_date', 'brl_amount_minor', 'total_amount_minor'])
    .where('company_id', '=', companyId)
    .execute();
});
afterAll(async () => server.close());

const COLUMN = {
  transactionDate: 'transaction_date',
  brlAmount: 'brl_amount_minor',
  totalTransactionAmount: 'total_amount_minor',
} as const;

async function pageThrough(
  filters: BankingFilters,
  field: BankingSortField,
  direction: SortDirection,
  rangePlan: 'walk' | 'sort',
  take = 7,
  company = companyId,
) {
  const ids: number[] = [];
  let after: BankingPageQuery['after'];
  for (let pages = 0; pages < 500; pages += 1) {
    const page = await loadBankingPage(server.db, {
      companyId: company,
      filters,
      sort: { field, direction },
      after,
      take,
      rangePlan,
    });
    ids.push(...page.items.map((item) => item.id));
    if (!page.nextKey) return ids;
    after = page.nextKey;
  }
  throw new Error('too many pages');
}

function reference(filters: BankingFilters, field: BankingSortField, direction: SortDirection) {
  const col = COLUMN[field];
  const sign = direction === 'asc' ? 1 : -1;
  const amount = filters.amount;
  return rows
    .filter(
      (r) =>
        (filters.from === undefined || r.transaction_date >= filters.from) &&
        (filters.to === undefined || r.transaction_date < filters.to),
    )
    .filter(
      (r) =>
        !amount ||
        (amount.op === '='
          ? r.brl_amount_minor === amount.minor
          : amount.op === '>'
            ? r.brl_amount_minor > amount.minor
            : r.brl_amount_minor < amount.minor),
    )
    .sort((a, b) => sign * (a[col] < b[col] ? -1 : a[col] > b[col] ? 1 : a.id - b.id))
    .map((r) => r.id);
}

const month = { from: '2026-09-10T03:00:00.000Z', to: '2026-10-01T03:00:00.000Z' };
const cases: Array<[string, BankingFilters, BankingSortField]> = [
  ['a date range', month, 'brlAmount'],
  ['a date range', month, 'totalTransactionAmount'],
  ['amountGt', { amount: { op: '>', minor: 2500 } }, 'totalTransactionAmount'],
  ['amountLt', { amount: { op: '<', minor: 2500 } }, 'totalTransactionAmount'],
  ['a date range and amountGt', { ...month, amount: { op: '>', minor: 1000 } }, 'totalTransactionAmount'],
  ['a date range and amountLt', { ...month, amount: { op: '<', minor: 2500 } }, 'totalTransactionAmount'],
  ['amountLt below most amounts', { amount: { op: '<', minor: 2501 } }, 'totalTransactionAmount'],
  ['amountLt above most amounts', { amount: { op: '<', minor: 60_000 } }, 'totalTransactionAmount'],
];

describe('listBankingTransactions plans', () => {
  it.each(
    cases.flatMap(([name, filters, field]) =>
      (['asc', 'desc'] as const).flatMap((direction) =>
        (['walk', 'sort'] as const).map((plan) => [name, field, direction, plan, filters] as const),
      ),
    ),
  )(
    'when filtering by %s sorted by %s:%s with the %s plan, then every matching row comes once, in order',
    async (_name, field, direction, plan, filters) => {
      const expected = reference(filters, field, direction);
      expect(expected.length).toBeGreaterThan(7);
      expect(await pageThrough(filters, field, direction, plan)).toEqual(expected);
    },
  );

  it.each(['asc', 'desc'] as const)(
    'when paging one row at a time by the total:%s with amountLt, then every cursor position (totals at X, ties) resumes in order',
    async (direction) => {
      const filters: BankingFilters = { amount: { op: '<', minor: 2500 } };
      const expected = reference(filters, 'totalTransactionAmount', direction);
      for (const plan of ['walk', 'sort'] as const)
        expect(await pageThrough(filters, 'totalTransactionAmount', direction, plan, 1)).toEqual(expected);
    },
  );

  it.each<[string, Array<[number, number]>]>([
    [
      'no row of the company has a total above its BRL amount',
      [
        [100, 100],
        [2_499, 2_499],
        [2_499, 2_499],
        [2_500, 2_500],
        [2_600, 2_600],
        [40, 40],
      ],
    ],
    // X − (the largest total − brl) is exactly the BRL amount of that row: a bound off by one misses it.
    [
      'the row with the largest fee has its total exactly at X',
      [
        [0, 2_500],
        [2_000, 2_600],
        [2_499, 2_500],
        [2_400, 2_400],
        [3_000, 3_100],
        [10, 10],
      ],
    ],
  ])('when %s, then amountLt by the total:desc still pages every row', async (_name, amounts) => {
    const other = (await server.newCompany()).companyId;
    const ids = await createBankingTransactions(
      server.db,
      other,
      await createAccount(server.db, other),
      amounts.map(([brl, total]) => ({ brl_amount_minor: brl, total_amount_minor: total })),
    );
    const expected = ids
      .map((id, i) => ({ id, brl: amounts[i]![0], total: amounts[i]![1] }))
      .filter((r) => r.brl < 2_500)
      .sort((a, b) => b.total - a.total || b.id - a.id)
      .map((r) => r.id);
    for (const take of [1, 2, 20]) {
      expect(
        await pageThrough({ amount: { op: '<', minor: 2_500 } }, 'totalTransactionAmount', 'desc', 'walk', take, other),
      ).toEqual(expected);
    }
  });
});
