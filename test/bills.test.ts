import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { expectError } from './support/factories/directory.js';
import { createCreditCardTransactions } from './support/factories/statements.js';
import { billDueDate } from '../server/areas/statements/bills/cycle.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

/** Local (São Paulo, UTC-3) noon of a day, as a UTC instant. */
const noon = (day: string) => `${day}T15:00:00.000Z`;

describe('billDueDate', () => {
  it('when a purchase is on or before day 3, then the bill due on the 10th of that month; after, the next month; installments follow', () => {
    expect(billDueDate('2026-11-03')).toBe('2026-11-10');
    expect(billDueDate('2026-11-04')).toBe('2026-12-10');
    expect(billDueDate('2026-12-31')).toBe('2027-01-10');
    expect(billDueDate('2026-11-04', 3)).toBe('2027-02-10');
  });
});

async function company() {
  const acme = await server.newCompany();
  await createCreditCardTransactions(server.db, acme.companyId, [
    { transaction_date: noon('2026-10-20'), brl_amount_minor: 10_000 },
    { transaction_date: '2026-11-04T02:59:59.000Z', brl_amount_minor: 5_000 }, // 23:59:59 on Nov 3rd, local: still the November bill
    { transaction_date: '2026-11-04T03:00:00.000Z', brl_amount_minor: 7_000 }, // 00:00 on Nov 4th, local: the December bill
    { transaction_date: noon('2026-11-15'), brl_amount_minor: 1_234, status: 1 }, // canceled: listed, not counted
    ...[1, 2, 3].map((n) => ({
      transaction_date: noon('2026-11-15'),
      brl_amount_minor: 3_333,
      installment_number: n,
      installment_total: 3,
    })),
  ]);
  return acme;
}

describe('listBills', () => {
  it("when the company has card records, then its bills latest first with totals of processed records and today's status", async () => {
    server.clock.set('2026-11-20T15:00:00Z');
    const acme = await company();
    const { data, response } = await acme.api.GET('/credit-cards/v1/bills');
    expect(response.status).toBe(200);
    expect(data).toEqual({
      items: [
        {
          dueDate: '2027-02-10',
          closingDate: '2027-02-03',
          totalAmount: 33.33,
          currency: 'BRL',
          status: 'OPEN',
          paidAt: null,
        },
        {
          dueDate: '2027-01-10',
          closingDate: '2027-01-03',
          totalAmount: 33.33,
          currency: 'BRL',
          status: 'OPEN',
          paidAt: null,
        },
        {
          dueDate: '2026-12-10',
          closingDate: '2026-12-03',
          totalAmount: 103.33,
          currency: 'BRL',
          status: 'OPEN',
          paidAt: null,
        },
        {
          dueDate: '2026-11-10',
          closingDate: '2026-11-03',
          totalAmount: 150,
          currency: 'BRL',
          status: 'OVERDUE',
          paidAt: null,
        },
      ],
    });
  });

  it('when today is between closing and due date, then CLOSED; when paid, then PAID with paidAt', async () => {
    server.clock.set('2026-12-05T12:00:00Z');
    const acme = await company();
    await server.db
      .updateTable('bills')
      .set({ paid_at: '2026-11-09T13:12:00.000Z' })
      .where('company_id', '=', acme.companyId)
      .where('due_date', '=', '2026-11-10')
      .execute();
    const { data } = await acme.api.GET('/credit-cards/v1/bills');
    expect(data!.items.map((b) => [b.dueDate, b.status, b.paidAt])).toEqual([
      ['2027-02-10', 'OPEN', null],
      ['2027-01-10', 'OPEN', null],
      ['2026-12-10', 'CLOSED', null],
      ['2026-11-10', 'PAID', '2026-11-09T10:12:00-03:00'],
    ]);
  });

  it('when paging by 1, then every bill once; limit 0 or 101 and a bad cursor are 400', async () => {
    const acme = await company();
    const seen: string[] = [];
    let key: string | undefined;
    do {
      const { data } = await acme.api.GET('/credit-cards/v1/bills', {
        params: { query: { limit: 1, nextPageStartKey: key } },
      });
      seen.push(...data!.items.map((b) => b.dueDate));
      key = data!.nextPageStartKey;
    } while (key);
    expect(seen).toEqual(['2027-02-10', '2027-01-10', '2026-12-10', '2026-11-10']);
    expectError(await acme.api.GET('/credit-cards/v1/bills', { params: { query: { limit: 0 } } }), 400);
    expectError(await acme.api.GET('/credit-cards/v1/bills', { params: { query: { limit: 101 } } }), 400);
    expectError(
      await acme.api.GET('/credit-cards/v1/bills', { params: { query: { nextPageStartKey: 'abc.def' } } }),
      400,
    );
  });

  it('when another company asks, then it sees none of these bills; without the scope, 403', async () => {
    await company();
    const globex = await server.newCompany();
    expect((await globex.api.GET('/credit-cards/v1/bills')).data).toEqual({ items: [] });
    const writer = await server.newCompany({ scopes: ['statements:write'] });
    expectError(await writer.api.GET('/credit-cards/v1/bills'), 403);
    expectError(await server.anonymous.GET('/credit-cards/v1/bills'), 401);
  });
});

describe('getBill', () => {
  it('when a bill is due on the date, then it with every record charged on it, newest first', async () => {
    server.clock.set('2026-11-20T15:00:00Z');
    const acme = await company();
    const { data } = await acme.api.GET('/credit-cards/v1/bills/{dueDate}', {
      params: { path: { dueDate: '2026-12-10' } },
    });
    expect(data).toMatchObject({
      dueDate: '2026-12-10',
      closingDate: '2026-12-03',
      totalAmount: 103.33,
      status: 'OPEN',
    });
    const rows = data!.transactions.map((t) => [t.brlAmount, t.status, t.installment?.number ?? null]);
    expect(rows.slice(0, 2)).toEqual(
      expect.arrayContaining([
        [33.33, 2, 1],
        [12.34, 1, null],
      ]),
    );
    expect(rows[2]).toEqual([70, 2, null]);
    expect(rows).toHaveLength(3);
    expect(data!.transactions.every((t) => t.billDueDate === '2026-12-10')).toBe(true);
  });

  it("when no bill is due on the date, or it is another company's, then 404; a malformed date, 400", async () => {
    const acme = await company();
    const globex = await server.newCompany();
    expectError(
      await acme.api.GET('/credit-cards/v1/bills/{dueDate}', { params: { path: { dueDate: '2026-12-11' } } }),
      404,
    );
    expectError(
      await globex.api.GET('/credit-cards/v1/bills/{dueDate}', { params: { path: { dueDate: '2026-12-10' } } }),
      404,
    );
    expectError(
      await acme.api.GET('/credit-cards/v1/bills/{dueDate}', { params: { path: { dueDate: '2026-02-30' } } }),
      400,
    );
  });
});
