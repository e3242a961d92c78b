import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createCard, createCreditCardTransactions } from './support/factories/statements.js';
import { createCostCenter, expectError } from './support/factories/directory.js';
import { paginators } from '../client/paginate.js';

let server: TestServer;
let acme: TestCompany;
let marketing: { id: string; name: string };
const OTHER_CARD = '7b1d3f5a-2c4e-4a6b-8d0f-1e3a5c7b9d2f';

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  const globex = await server.newCompany();
  marketing = await createCostCenter(server.db, acme.companyId, { name: 'Marketing' });
  await createCard(server.db, acme.companyId, { id: OTHER_CARD, name: 'Assinaturas', last4: '7788' });
  await createCreditCardTransactions(server.db, acme.companyId, [
    {
      brl_amount_minor: 31_240,
      notes: 'Passagem aérea feira',
      cost_center_id: marketing.id,
      transaction_date: '2026-10-02T15:00:00.000Z',
    },
    { brl_amount_minor: 120_001, merchant_name: 'HOTEL ÂNCORA', transaction_date: '2026-10-20T15:00:00.000Z' },
    { brl_amount_minor: 5_000, notes: 'Remarcação passagem', transaction_date: '2026-10-21T15:00:00.000Z' },
    {
      brl_amount_minor: 9_999,
      card_id: OTHER_CARD,
      final_card_number: '7788',
      transaction_date: '2026-06-01T15:00:00.000Z',
    },
  ]);
  await createCreditCardTransactions(server.db, globex.companyId, [{ brl_amount_minor: 777_777 }]);
});
afterAll(async () => server.close());

/** The list's own count and sums (every page), in cents. */
async function listed(query: Record<string, unknown>) {
  let count = 0;
  let inCents = 0;
  let outCents = 0;
  for await (const t of paginators(acme.api).creditCardTransactions(query as never)) {
    count++;
    const cents = Math.round(t.brlAmount * 100);
    if (cents < 0) inCents -= cents;
    else outCents += cents;
  }
  return { count, in: inCents / 100, out: outCents / 100, net: (inCents - outCents) / 100 };
}

describe('getCreditCardSummary', () => {
  it('when no filter is given, then the totals equal the list’s count and sums, never another company’s', async () => {
    const { data, response } = await acme.api.GET('/statements/v1/credit-card/summary');
    expect(response.status).toBe(200);
    expect(data).toEqual({ total: { count: 4, in: 0, out: 1662.4, net: -1662.4 }, groups: [] });
    expect(data?.total).toEqual(await listed({}));
  });

  it('when filtered by dates, q or cards, then the totals equal the list’s for the same filter', async () => {
    const october = { startDate: '2026-10-01', endDate: '2026-10-31' };
    const summary = async (query: Record<string, unknown>) =>
      (await acme.api.GET('/statements/v1/credit-card/summary', { params: { query } })).data?.total;
    expect(await summary(october)).toEqual(await listed(october));
    expect(await summary({ q: 'passagem' })).toEqual({ count: 2, in: 0, out: 362.4, net: -362.4 });
    expect(await summary({ q: 'passagem' })).toEqual(await listed({ q: 'passagem' }));
    expect(await summary({ q: 'marketing' })).toEqual({ count: 1, in: 0, out: 312.4, net: -312.4 });
    expect(await summary({ cardIds: [OTHER_CARD] })).toEqual({ count: 1, in: 0, out: 99.99, net: -99.99 });
    // A year: the list's 62-day window does not bind a summary.
    expect((await summary({ startDate: '2026-01-01', endDate: '2026-12-31' }))?.count).toBe(4);
  });

  it('when grouped, then the groups add up to the totals and carry the names of cards and cost centers', async () => {
    for (const groupBy of ['category', 'costCenter', 'merchant', 'card', 'status'] as const) {
      const { data } = await acme.api.GET('/statements/v1/credit-card/summary', { params: { query: { groupBy } } });
      const groups = data?.groups ?? [];
      expect(
        groups.reduce((n, g) => n + g.count, 0),
        groupBy,
      ).toBe(data?.total.count);
      expect(Math.round(groups.reduce((n, g) => n + g.out * 100, 0))).toBe(Math.round((data?.total.out ?? 0) * 100));
    }
    const byCard = await acme.api.GET('/statements/v1/credit-card/summary', { params: { query: { groupBy: 'card' } } });
    expect(byCard.data?.groups.map((g) => g.label)).toEqual(['Cartão final 4021', 'Assinaturas']);
    const byCostCenter = await acme.api.GET('/statements/v1/credit-card/summary', {
      params: { query: { groupBy: 'costCenter' } },
    });
    expect(byCostCenter.data?.groups).toContainEqual({
      key: marketing.id,
      label: 'Marketing',
      count: 1,
      in: 0,
      out: 312.4,
      net: -312.4,
    });
  });

  it('when grouped by day or month, then the groups are the company’s calendar days or months, in order, adding up to the totals', async () => {
    const tokyo = await server.newCompany({ timeZone: 'Asia/Kolkata' });
    // 18:40 UTC is the next day in India (+05:30); 18:20 UTC still the same day.
    await createCreditCardTransactions(server.db, tokyo.companyId, [
      { brl_amount_minor: 1_000, transaction_date: '2026-10-31T18:20:00.000Z' },
      { brl_amount_minor: 2_000, transaction_date: '2026-10-31T18:40:00.000Z' },
      { brl_amount_minor: 4_000, transaction_date: '2026-11-02T10:00:00.000Z' },
    ]);
    const group = async (groupBy: 'day' | 'month') =>
      (await tokyo.api.GET('/statements/v1/credit-card/summary', { params: { query: { groupBy } } })).data?.groups.map(
        (g) => `${g.key} ${g.label} ${g.count} ${g.out}`,
      );
    expect(await group('day')).toEqual([
      '2026-10-31 2026-10-31 1 10',
      '2026-11-01 2026-11-01 1 20',
      '2026-11-02 2026-11-02 1 40',
    ]);
    expect(await group('month')).toEqual(['2026-10 2026-10 1 10', '2026-11 2026-11 2 60']);
    const { data } = await acme.api.GET('/statements/v1/credit-card/summary', {
      params: { query: { groupBy: 'month' } },
    });
    expect(data?.groups.map((g) => g.key)).toEqual(['2026-06', '2026-10']);
    expect(data?.groups.reduce((n, g) => n + g.count, 0)).toBe(data?.total.count);
  });

  it('when the filters are invalid, then 400; with the ETag sent back, 304', async () => {
    for (const query of ['groupBy=week', 'startDate=2026-10-01', 'types=REFUND', 'q=ab', 'cardIds=nope']) {
      const res = await fetch(`${server.baseUrl}/statements/v1/credit-card/summary?${query}`, {
        headers: { Authorization: `Bearer ${acme.token}` },
      });
      expect(res.status, query).toBe(400);
      expect((await res.json()).code).toBe(400);
    }
    const first = await acme.api.GET('/statements/v1/credit-card/summary');
    const etag = first.response.headers.get('ETag')!;
    const again = await fetch(`${server.baseUrl}/statements/v1/credit-card/summary`, {
      headers: { Authorization: `Bearer ${acme.token}`, 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expectError(
      await (await server.newCompany({ scopes: ['cards:read'] })).api.GET('/statements/v1/credit-card/summary'),
      403,
    );
  });
});
