import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';
import { createCostCenter } from './support/factories/directory.js';
import { paginators } from '../client/paginate.js';

let server: TestServer;
let acme: TestCompany;
let tech: { id: string; name: string };

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  const globex = await server.newCompany();
  tech = await createCostCenter(server.db, acme.companyId, { name: 'Tecnologia' });
  const account = await createAccount(server.db, acme.companyId);
  await createBankingTransactions(server.db, acme.companyId, account, [
    { sub_type: 'CREDIT', brl_amount_minor: 2_500_000, total_amount_minor: 2_500_000, status: 2 },
    { sub_type: 'DEBIT', brl_amount_minor: 100_001, total_amount_minor: 100_351, status: 2, cost_center_id: tech.id },
    { sub_type: 'DEBIT', brl_amount_minor: 3_333, total_amount_minor: 3_333, status: 3, cost_center_id: tech.id },
    { sub_type: 'DEBIT', brl_amount_minor: 47, total_amount_minor: 47, status: 1 },
  ]);
  await createBankingTransactions(server.db, globex.companyId, await createAccount(server.db, globex.companyId), [
    { sub_type: 'CREDIT', brl_amount_minor: 999_999, total_amount_minor: 999_999 },
  ]);
});
afterAll(async () => server.close());

/** The list's own count and sums, from every page, in cents. */
async function listed(query: Record<string, unknown>) {
  let count = 0;
  let inCents = 0;
  let outCents = 0;
  for await (const t of paginators(acme.api).bankingTransactions(query as never)) {
    count++;
    const cents = Math.round(t.totalTransactionAmount * 100);
    if (t.transactionType.subType === 'CREDIT') inCents += cents;
    else outCents += cents;
  }
  return { count, in: inCents / 100, out: outCents / 100, net: (inCents - outCents) / 100 };
}

const summary = async (query: Record<string, unknown>) => {
  const { data, response } = await acme.api.GET('/statements/v1/banking/summary', {
    params: { query: query as never },
  });
  expect(response.status).toBe(200);
  return data!;
};

describe('getBankingSummary', () => {
  it('when no filter is sent, then the totals equal the list’s count and sums, exact to the cent, of this company only', async () => {
    const got = await summary({});
    expect(got).toEqual({ total: { count: 4, in: 25000, out: 1037.31, net: 23962.69 }, groups: [] });
    expect(got.total).toEqual(await listed({}));
  });

  it('when filters are sent, then the totals equal the list’s for the same filters', async () => {
    for (const query of [{ status: [2, 3] }, { costCenterIds: [tech.id] }, { amountGt: 30 }, { wasConciled: false }]) {
      expect((await summary(query)).total).toEqual(await listed(query));
    }
  });

  it('when grouped by cost center or status, then each group is labelled and the groups add up to the total', async () => {
    const byCostCenter = await summary({ groupBy: 'costCenter' });
    expect(byCostCenter.groups).toEqual([
      { key: null, label: 'No cost center', count: 2, in: 25000, out: 0.47, net: 24999.53 },
      { key: tech.id, label: 'Tecnologia', count: 2, in: 0, out: 1036.84, net: -1036.84 },
    ]);
    const byStatus = await summary({ groupBy: 'status', status: [1, 2] });
    expect(byStatus.groups.map((g) => [g.key, g.label, g.count])).toEqual([
      ['2', 'PROCESSED', 2],
      ['1', 'CANCELED', 1],
    ]);
    for (const { total, groups } of [byCostCenter, byStatus]) {
      expect(groups.reduce((sum, g) => sum + g.count, 0)).toBe(total.count);
      expect(Math.round(groups.reduce((sum, g) => sum + g.out * 100, 0))).toBe(Math.round(total.out * 100));
    }
  });

  it('when grouped by day or month, then the groups are São Paulo calendar days or months, in order, equal to the list for that day', async () => {
    const saoPaulo = await server.newCompany();
    const account = await createAccount(server.db, saoPaulo.companyId);
    // 02:30 UTC on Oct 1st is still Sep 30th in São Paulo (−03:00); 03:30 UTC is Oct 1st.
    await createBankingTransactions(server.db, saoPaulo.companyId, account, [
      {
        sub_type: 'DEBIT',
        brl_amount_minor: 1_000,
        total_amount_minor: 1_000,
        transaction_date: '2026-10-01T02:30:00.000Z',
      },
      {
        sub_type: 'CREDIT',
        brl_amount_minor: 5_000,
        total_amount_minor: 5_000,
        transaction_date: '2026-10-01T03:30:00.000Z',
      },
      {
        sub_type: 'DEBIT',
        brl_amount_minor: 250,
        total_amount_minor: 250,
        transaction_date: '2026-10-15T12:00:00.000Z',
      },
    ]);
    const groups = async (groupBy: 'day' | 'month') =>
      (await saoPaulo.api.GET('/statements/v1/banking/summary', { params: { query: { groupBy } } })).data?.groups.map(
        (g) => [g.key, g.count, g.in, g.out],
      );
    expect(await groups('day')).toEqual([
      ['2026-09-30', 1, 0, 10],
      ['2026-10-01', 1, 50, 0],
      ['2026-10-15', 1, 0, 2.5],
    ]);
    expect(await groups('month')).toEqual([
      ['2026-09', 1, 0, 10],
      ['2026-10', 2, 50, 2.5],
    ]);
    const { data } = await saoPaulo.api.GET('/statements/v1/banking', {
      params: { query: { startDate: '2026-10-01', endDate: '2026-10-01' } },
    });
    expect(data?.transactions.map((t) => t.totalTransactionAmount)).toEqual([50]);
  });

  it('when the same summary is asked with its ETag, then 304; a bad groupBy is 400', async () => {
    const first = await fetch(`${server.baseUrl}/statements/v1/banking/summary`, {
      headers: { Authorization: `Bearer ${acme.token}` },
    });
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${server.baseUrl}/statements/v1/banking/summary`, {
      headers: { Authorization: `Bearer ${acme.token}`, 'If-None-Match': etag! },
    });
    expect(again.status).toBe(304);
    const bad = await fetch(`${server.baseUrl}/statements/v1/banking/summary?groupBy=week`, {
      headers: { Authorization: `Bearer ${acme.token}` },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).param).toBe('groupBy');
  });
});
