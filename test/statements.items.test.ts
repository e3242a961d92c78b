// One transaction of each statement, exactly as the list shows it, with the ETag its PATCH's If-Match takes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/factories/directory.js';
import {
  createAccount,
  createBankingTransaction,
  createCreditCardTransaction,
} from './support/factories/statements.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

describe('getBankingTransaction', () => {
  it('when the transaction is the company’s, then 200 with it as the list shows it and an ETag; another company’s is 404', async () => {
    const acme = await server.newCompany();
    const other = await server.newCompany();
    const id = await createBankingTransaction(
      server.db,
      acme.companyId,
      await createAccount(server.db, acme.companyId),
    );
    const path = { params: { path: { transactionId: id } } };
    const item = await acme.api.GET('/statements/v1/banking/{transactionId}', path);
    expect(item.response.status).toBe(200);
    const { data: list } = await acme.api.GET('/statements/v1/banking');
    expect(item.data).toEqual(list?.transactions.find((t) => t.id === id));
    expect(item.response.headers.get('ETag')).toMatch(/^"[\w-]+"$/);
    expect(item.response.headers.get('Cache-Control')).toBe('private, no-cache');

    expectError(await other.api.GET('/statements/v1/banking/{transactionId}', path), 404);
    expectError(
      await acme.api.GET('/statements/v1/banking/{transactionId}', {
        params: { path: { transactionId: id + 1_000_000 } },
      }),
      404,
    );
  });
});

describe('getCreditCardTransaction', () => {
  it('when the transaction is the company’s, then 200 with it as the list shows it; another company’s is 404', async () => {
    const acme = await server.newCompany();
    const other = await server.newCompany();
    const id = await createCreditCardTransaction(server.db, acme.companyId);
    const path = { params: { path: { transactionId: id } } };
    const item = await acme.api.GET('/statements/v1/credit-card/{transactionId}', path);
    expect(item.response.status).toBe(200);
    const { data: list } = await acme.api.GET('/statements/v1/credit-card');
    expect(item.data).toEqual(list?.transactions.find((t) => t.id === id));
    expectError(await other.api.GET('/statements/v1/credit-card/{transactionId}', path), 404);
  });
});
