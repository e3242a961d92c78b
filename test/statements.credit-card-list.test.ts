import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import type { components, operations } from '../generated/openapi.js';
import { expectError } from './support/factories/directory.js';
import { createCreditCardTransactions } from './support/factories/statements.js';

type Item = components['schemas']['CreditCardTransaction'];
type Query = NonNullable<operations['listCreditCardTransactions']['parameters']['query']>;
const PATH = '/statements/v1/credit-card';
const CARDS = [
  'c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e',
  '5e0d9b1a-7c3f-4e2d-8a6b-1f0e9d8c7b6a',
  '0f1e2d3c-4b5a-4697-8877-665544332211',
];

let server: TestServer;
let acme: TestCompany;
let all: Item[];

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
  const base = Date.parse('2026-10-01T03:00:00.000Z');
  await createCreditCardTransactions(
    server.db,
    acme.companyId,
    Array.from({ length: 120 }, (_, i) => ({
      card_id: CARDS[i % 3],
      final_card_number: String(1000 + (i % 3)),
      transaction_date: new Date(base + Math.floor(i / 2) * 11 * 3_600_000).toISOString(),
      ...(i % 10 === 0
        ? {
            currency: 'USD',
            amount_minor: 10_000,
            exchange_rate: 5.4333,
            iof_amount_minor: 1902,
            brl_amount_minor: 56_235,
          }
        : {}),
      ...(i % 7 === 0 ? { installment_number: 2, installment_total: 6 } : {}),
    })),
  );
  const globex = await server.newCompany();
  await createCreditCardTransactions(server.db, globex.companyId, [{ card_id: CARDS[0] }]);
  all = await walk({ limit: 100 });
}, 60_000);
afterAll(async () => server.close());

const ids = (items: Item[]) => items.map((t) => t.id);

describe('listCreditCardTransactions', () => {
  it("when called without parameters, then 50 records newest first, ties by id, only the company's", async () => {
    const { data } = await acme.api.GET(PATH);
    expect(data!.transactions).toHaveLength(50);
    expect(all).toHaveLength(120);
    const sorted = [...all].sort(
      (a, b) => b.transactionDate.localeCompare(a.transactionDate) || (a.id < b.id ? 1 : -1),
    );
    expect(ids(all)).toEqual(ids(sorted));
    expect(ids(data!.transactions)).toEqual(ids(all.slice(0, 50)));
  });

  it('when paging by 7, then every record exactly once', async () => {
    expect(ids(await walk({ limit: 7 }))).toEqual(ids(all));
  });

  it('when filtering by cards and dates, then the same records as filtering the whole list', async () => {
    expect(ids(await walk({ cardIds: [CARDS[0]!], limit: 9 }))).toEqual(ids(all.filter((t) => t.cardId === CARDS[0])));
    expect(ids(await walk({ cardIds: [CARDS[2]!, CARDS[0]!], limit: 9 }))).toEqual(
      ids(all.filter((t) => t.cardId !== CARDS[1])),
    );
    const inRange = (t: Item) =>
      t.transactionDate.slice(0, 10) >= '2026-10-05' && t.transactionDate.slice(0, 10) <= '2026-10-12';
    expect(ids(await walk({ startDate: '2026-10-05', endDate: '2026-10-12', limit: 5 }))).toEqual(
      ids(all.filter(inRange)),
    );
  });

  it('when a record is a USD purchase in installments, then amount, currency, rate, IOF and installment are shown', async () => {
    const usd = all.find((t) => t.currency === 'USD' && t.installment)!;
    expect(usd).toMatchObject({
      amount: 100,
      brlAmount: 562.35,
      exchangeRate: 5.4333,
      iofAmount: 19.02,
      installment: { number: 2, total: 6 },
    });
    expect(all.find((t) => !t.installment)).not.toHaveProperty('installment');
  });

  it('when limit is 100, then accepted; 0 or 101, then 400; a lone date or a tampered cursor, then 400', async () => {
    expect((await acme.api.GET(PATH, { params: { query: { limit: 100 } } })).data!.transactions).toHaveLength(100);
    expectError(await acme.api.GET(PATH, { params: { query: { limit: 0 } } }), 400);
    expectError(await acme.api.GET(PATH, { params: { query: { limit: 101 } } }), 400);
    expectError(await acme.api.GET(PATH, { params: { query: { startDate: '2026-10-01' } } }), 400);
    expectError(await acme.api.GET(PATH, { params: { query: { cardIds: ['x'] } } }), 400);
    const key = (await acme.api.GET(PATH, { params: { query: { limit: 5 } } })).data!.nextPageStartKey!;
    expectError(
      await acme.api.GET(PATH, { params: { query: { limit: 5, cardIds: [CARDS[0]!], nextPageStartKey: key } } }),
      400,
    );
    expectError(await acme.api.GET(PATH, { params: { query: { limit: 5, nextPageStartKey: `${key}x` } } }), 400);
  });

  it('when the token lacks statements:read, then 403; without a token, 401', async () => {
    const writer = await server.newCompany({ scopes: ['statements:write'] });
    expectError(await writer.api.GET(PATH), 403);
    expectError(await server.anonymous.GET(PATH), 401);
  });
});
