import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { expectError } from './support/factories/directory.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

describe('getAccountBalance', () => {
  it('when movements exist, then balance counts processed ones, pending debits are blocked, canceled ones nothing', async () => {
    const acme = await server.newCompany();
    const main = await createAccount(server.db, acme.companyId, { name: 'Conta principal', openingMinor: 1_000_000 });
    const other = await createAccount(server.db, acme.companyId, { name: 'Conta reserva', openingMinor: 0 });
    await createBankingTransactions(server.db, acme.companyId, main, [
      { sub_type: 'CREDIT', status: 2, brl_amount_minor: 50_000, total_amount_minor: 50_000 },
      {
        sub_type: 'DEBIT',
        status: 2,
        brl_amount_minor: 19_000,
        fee_service_amount_minor: 1_000,
        total_amount_minor: 20_000,
      },
      { sub_type: 'DEBIT', status: 3, brl_amount_minor: 3_000, total_amount_minor: 3_000 },
      { sub_type: 'CREDIT', status: 3, brl_amount_minor: 7_000, total_amount_minor: 7_000 },
      { sub_type: 'DEBIT', status: 1, brl_amount_minor: 9_999, total_amount_minor: 9_999 },
    ]);
    const { data, response } = await acme.api.GET('/accounts/v1/balance');
    expect(response.status).toBe(200);
    expect(data!.items).toEqual([
      expect.objectContaining({
        accountId: main,
        name: 'Conta principal',
        currency: 'BRL',
        balance: 10_300,
        blockedAmount: 30,
        availableAmount: 10_270,
        asOf: '2026-11-20T12:00:00-03:00',
      }),
      expect.objectContaining({ accountId: other, balance: 0, blockedAmount: 0, availableAmount: 0 }),
    ]);
    const only = await acme.api.GET('/accounts/v1/balance', { params: { query: { accountId: other } } });
    expect(only.data!.items.map((a) => a.accountId)).toEqual([other]);
  });

  it("when the account is another company's or absent, then 404; accountId 0, 400; without the scope, 403", async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    expectError(await globex.api.GET('/accounts/v1/balance', { params: { query: { accountId: account } } }), 404);
    expect((await globex.api.GET('/accounts/v1/balance')).data).toEqual({ items: [] });
    expectError(await acme.api.GET('/accounts/v1/balance', { params: { query: { accountId: 0 } } }), 400);
    const writer = await server.newCompany({ scopes: ['statements:write'] });
    expectError(await writer.api.GET('/accounts/v1/balance'), 403);
    expectError(await server.anonymous.GET('/accounts/v1/balance'), 401);
  });
});
