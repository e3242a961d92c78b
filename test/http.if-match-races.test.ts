// If-Match under races: writers that read the same ETag and write at the same moment. The tag is
// compared inside the write's own transaction, so exactly one of them wins and every other gets 412,
// for every write that takes If-Match (a statement's PATCH, a cost center's, supplier's, category's,
// user's and webhook endpoint's change or deletion).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createCostCenter, createSupplier } from './support/factories/directory.js';
import {
  createAccount,
  createBankingTransaction,
  createCreditCardTransaction,
} from './support/factories/statements.js';
import { createRoles, createUser } from './support/factories/users.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const RACERS = 12;

/** Sends `RACERS` writes of `path` at once, each with the tag its GET answered; their statuses. */
async function race(
  company: TestCompany,
  path: string,
  method: 'PATCH' | 'PUT' | 'DELETE',
  body: (i: number) => unknown,
): Promise<number[]> {
  const headers = { Authorization: `Bearer ${company.token}` };
  const read = await fetch(`${server.baseUrl}${path}`, { headers });
  expect(read.status).toBe(200);
  const tag = read.headers.get('ETag')!;
  const answers = await Promise.all(
    Array.from({ length: RACERS }, (_, i) =>
      fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { ...headers, 'If-Match': tag, 'Content-Type': 'application/json' },
        body: method === 'DELETE' ? undefined : JSON.stringify(body(i)),
      }).then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      }),
    ),
  );
  return answers;
}

const expectOneWinner = (statuses: number[]) => {
  expect(statuses.filter((s) => s >= 200 && s < 300)).toHaveLength(1);
  expect(statuses.filter((s) => s === 412)).toHaveLength(RACERS - 1);
};

describe('If-Match under races', () => {
  it('when twelve writers of one statement transaction race with its ETag, then one wins and eleven get 412, on both statements', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    for (let round = 0; round < 3; round += 1) {
      const banking = await createBankingTransaction(server.db, acme.companyId, account);
      expectOneWinner(
        await race(acme, `/statements/v1/banking/${banking}`, 'PATCH', (i) => ({ notes: `writer ${i}` })),
      );
      const card = await createCreditCardTransaction(server.db, acme.companyId);
      expectOneWinner(
        await race(acme, `/statements/v1/credit-card/${card}`, 'PATCH', (i) => ({ notes: `writer ${i}` })),
      );
    }
    // The winner's note is the one stored, and a single change was recorded for it.
    const banking = await createBankingTransaction(server.db, acme.companyId, account);
    const statuses = await race(acme, `/statements/v1/banking/${banking}`, 'PATCH', (i) => ({ notes: `writer ${i}` }));
    const winner = statuses.indexOf(204);
    const stored = await server.db
      .selectFrom('banking_transactions')
      .select('notes')
      .where('id', '=', banking)
      .executeTakeFirstOrThrow();
    expect(stored.notes).toBe(`writer ${winner}`);
  });

  it('when twelve writers rename or delete one directory item with its ETag, then one wins and eleven get 412', async () => {
    const acme = await server.newCompany();
    const rename = (i: number) => ({ name: `Renamed ${i}` });
    const cc = await createCostCenter(server.db, acme.companyId);
    expectOneWinner(await race(acme, `/cost-centers/v1/cost-centers/${cc.id}`, 'PATCH', rename));
    expectOneWinner(await race(acme, `/cost-centers/v1/cost-centers/${cc.id}`, 'DELETE', rename));
    const supplier = await createSupplier(server.db, acme.companyId);
    expectOneWinner(await race(acme, `/suppliers/v1/suppliers/${supplier.id}`, 'PUT', rename));
    expectOneWinner(await race(acme, `/suppliers/v1/suppliers/${supplier.id}`, 'DELETE', rename));
    const category = await createCategory(server.db, acme.companyId);
    expectOneWinner(await race(acme, `/categories/v1/categories/${category.id}`, 'PATCH', rename));
  });

  it('when twelve writers change or delete one user or webhook endpoint with its ETag, then one wins and eleven get 412', async () => {
    const acme = await server.newCompany();
    const roles = await createRoles(server.db, acme.companyId);
    const user = await createUser(server.db, acme.companyId, { role_id: roles.employee.id });
    expectOneWinner(await race(acme, `/users/v1/users/${user.id}`, 'PATCH', (i) => ({ name: `Name ${i}` })));
    expectOneWinner(await race(acme, `/users/v1/users/${user.id}`, 'DELETE', () => undefined));

    const created = await acme.api.POST('/webhooks/v1/endpoints', {
      body: { url: 'https://erp.example.com/hooks', enabledEvents: ['*'] },
    });
    expect(created.response.status).toBe(201);
    const endpoint = `/webhooks/v1/endpoints/${created.data!.id}`;
    expectOneWinner(await race(acme, endpoint, 'PATCH', (i) => ({ description: `writer ${i}` })));
    expectOneWinner(await race(acme, endpoint, 'DELETE', () => undefined));
  });
});
