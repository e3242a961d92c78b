import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createCreditCardTransactions } from './support/factories/statements.js';

let server: TestServer;
let acme: TestCompany;
let globex: TestCompany;
let ids: { purchase: string; installment: string; international: string };

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  globex = await server.newCompany();
  const [purchase, installment, international] = await createCreditCardTransactions(server.db, acme.companyId, [
    { transaction_date: '2026-10-05T15:00:00.000Z' },
    { transaction_date: '2026-10-06T15:00:00.000Z', installment_number: 1, installment_total: 3 },
    { transaction_date: '2026-10-07T15:00:00.000Z', currency: 'USD', exchange_rate: 5.4, amount_minor: 1000 },
  ]);
  ids = { purchase: purchase!, installment: installment!, international: international! };
  await createCreditCardTransactions(server.db, globex.companyId, [{ transaction_date: '2026-10-05T16:00:00.000Z' }]);
});
afterAll(async () => server.close());

const list = (query: Record<string, unknown>) =>
  acme.api.GET('/statements/v1/credit-card', { params: { query: query as never } });
const raw = (query: string) =>
  fetch(`${server.baseUrl}/statements/v1/credit-card?${query}`, { headers: { Authorization: `Bearer ${acme.token}` } });

describe('listCreditCardTransactions (the live API’s types and window)', () => {
  it('when records of each kind exist, then each carries its type and `types` keeps only those kinds', async () => {
    const all = await list({});
    expect(all.data?.transactions.map((t) => [t.id, t.type])).toEqual([
      [ids.international, 'INTERNATIONAL_PURCHASE'],
      [ids.installment, 'INSTALLMENT_PURCHASE'],
      [ids.purchase, 'PURCHASE'],
    ]);
    const only = async (types: string[]) => (await list({ types })).data?.transactions.map((t) => t.id);
    expect(await only(['PURCHASE'])).toEqual([ids.purchase]);
    expect(await only(['INSTALLMENT_PURCHASE', 'INTERNATIONAL_PURCHASE'])).toEqual([
      ids.international,
      ids.installment,
    ]);
    expect(
      (await list({ types: ['PURCHASE'], cardIds: ['c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e'] })).data?.transactions.map(
        (t) => t.id,
      ),
    ).toEqual([ids.purchase]);
  });

  it('when a type is unknown, then 400 naming `types`', async () => {
    const res = await raw('types=PURCHASE,REFUND');
    expect(res.status).toBe(400);
    expect((await res.json()).param).toBe('types');
  });

  it('when the window is 62 days, then it is served; 63 or 181 days, then 400 naming endDate', async () => {
    const ok = await list({ startDate: '2026-09-01', endDate: '2026-11-02' });
    expect(ok.response.status).toBe(200);
    expect(ok.data?.transactions).toHaveLength(3);
    for (const endDate of ['2026-11-03', '2027-03-01']) {
      const res = await raw(`startDate=2026-09-01&endDate=${endDate}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ reason: 'invalid_value', param: 'endDate' });
    }
  });

  it('when limit is below 5 or above 100, then 400 naming limit; 5 and 100 are served', async () => {
    for (const limit of [0, 1, 2, 4, 101]) {
      const res = await raw(`limit=${limit}`);
      expect(res.status, `limit=${limit}`).toBe(400);
      expect(await res.json()).toMatchObject({ param: 'limit' });
    }
    for (const limit of [5, 100]) expect((await list({ limit })).response.status, `limit=${limit}`).toBe(200);
  });

  it('when pages of 5 are followed with a types filter, then the cursor keeps the filter and refuses another', async () => {
    const initech = await server.newCompany();
    const day = (n: number) => `2026-10-${String(n).padStart(2, '0')}T15:00:00.000Z`;
    const made = await createCreditCardTransactions(server.db, initech.companyId, [
      ...[1, 2, 3, 4].map((n) => ({ transaction_date: day(n) })),
      ...[5, 6, 7].map((n) => ({ transaction_date: day(n), installment_number: 1, installment_total: 3 })),
      { transaction_date: day(8), currency: 'USD', exchange_rate: 5.4, amount_minor: 1000 },
    ]);
    const listed = (query: Record<string, unknown>) =>
      initech.api.GET('/statements/v1/credit-card', { params: { query: query as never } });
    const first = await listed({ types: ['PURCHASE', 'INSTALLMENT_PURCHASE'], limit: 5 });
    expect(first.data?.transactions.map((t) => t.id)).toEqual(made.slice(2, 7).reverse());
    const key = first.data?.nextPageStartKey;
    const second = await listed({ types: ['INSTALLMENT_PURCHASE', 'PURCHASE'], limit: 5, nextPageStartKey: key });
    expect(second.data?.transactions.map((t) => t.id)).toEqual(made.slice(0, 2).reverse());
    expect(second.data?.nextPageStartKey).toBeUndefined();
    expect((await listed({ types: ['PURCHASE'], limit: 5, nextPageStartKey: key })).response.status).toBe(400);
  });
});
