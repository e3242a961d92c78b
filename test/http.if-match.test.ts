// If-Match on an item's PATCH, PUT and DELETE: a write that must not overwrite someone else's change
// sends the ETag its GET answered; a stale one is 412 with nothing written, a current one writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCostCenter, createSupplier, expectError } from './support/factories/directory.js';
import { createAccount, createBankingTransaction } from './support/factories/statements.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

describe('If-Match', () => {
  it('when a banking transaction is read, then its ETag is the tag a PATCH must send: stale → 412 and nothing written', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    const id = await createBankingTransaction(server.db, acme.companyId, account);
    const path = { params: { path: { transactionId: id } } };

    const read = await acme.api.GET('/statements/v1/banking/{transactionId}', path);
    expect(read.response.status).toBe(200);
    expect(read.data?.id).toBe(id);
    const tag = read.response.headers.get('ETag')!;
    expect(tag).toMatch(/^"[\w-]+"$/);

    // Alice writes with the tag she read: it applies, and the tag moves on.
    const alice = await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      ...path,
      body: { notes: 'Alice' },
      headers: { 'If-Match': tag },
    });
    expect(alice.response.status).toBe(204);
    const after = await acme.api.GET('/statements/v1/banking/{transactionId}', path);
    expect(after.data?.notes).toBe('Alice');
    expect(after.response.headers.get('ETag')).not.toBe(tag);

    // Bob read before Alice wrote: his write is refused and changes nothing.
    const bob = await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      ...path,
      body: { notes: 'Bob' },
      headers: { 'If-Match': tag },
    });
    expectError(bob, 412);
    expect(bob.error).toMatchObject({ reason: 'precondition_failed', param: 'If-Match' });
    const row = await server.db
      .selectFrom('banking_transactions')
      .select('notes')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.notes).toBe('Alice');

    // `*` holds for any current version; If-None-Match with the current tag is 304.
    const star = await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      ...path,
      body: { notes: 'Any' },
      headers: { 'If-Match': '*' },
    });
    expect(star.response.status).toBe(204);
    const current = (await acme.api.GET('/statements/v1/banking/{transactionId}', path)).response.headers.get('ETag')!;
    const unchanged = await acme.api.GET('/statements/v1/banking/{transactionId}', {
      ...path,
      headers: { 'If-None-Match': current },
    });
    expect(unchanged.response.status).toBe(304);
  });

  it('when a cost center is renamed or deleted with a stale tag, then 412 and it stays as it was', async () => {
    const acme = await server.newCompany();
    const cc = await createCostCenter(server.db, acme.companyId, { name: 'Finance' });
    const path = { params: { path: { id: cc.id } } };
    const tag = (await acme.api.GET('/cost-centers/v1/cost-centers/{id}', path)).response.headers.get('ETag')!;
    expect(
      (await acme.api.PATCH('/cost-centers/v1/cost-centers/{id}', { ...path, body: { name: 'Fin' } })).response.status,
    ).toBe(200);

    expectError(
      await acme.api.PATCH('/cost-centers/v1/cost-centers/{id}', {
        ...path,
        body: { name: 'Finanças' },
        headers: { 'If-Match': tag },
      }),
      412,
    );
    expectError(
      await acme.api.DELETE('/cost-centers/v1/cost-centers/{id}', { ...path, headers: { 'If-Match': tag } }),
      412,
    );
    const now = await acme.api.GET('/cost-centers/v1/cost-centers/{id}', path);
    expect(now.data?.name).toBe('Fin');

    const fresh = now.response.headers.get('ETag')!;
    const deleted = await acme.api.DELETE('/cost-centers/v1/cost-centers/{id}', {
      ...path,
      headers: { 'If-Match': fresh },
    });
    expect(deleted.response.status).toBe(204);
  });

  it('when the item is another company’s or gone, then If-Match cannot hold: 412, and the other company’s item is untouched', async () => {
    const acme = await server.newCompany();
    const other = await server.newCompany();
    const theirs = await createSupplier(server.db, other.companyId, { name: 'Papelaria' });
    const result = await acme.api.PUT('/suppliers/v1/suppliers/{id}', {
      params: { path: { id: theirs.id } },
      body: { name: 'Mine now' },
      headers: { 'If-Match': '*' },
    });
    expectError(result, 412);
    const still = await other.api.GET('/suppliers/v1/suppliers/{id}', { params: { path: { id: theirs.id } } });
    expect(still.data?.name).toBe('Papelaria');
  });

  it('when no If-Match is sent, then writes apply as before', async () => {
    const acme = await server.newCompany();
    const cc = await createCostCenter(server.db, acme.companyId, { name: 'Ops' });
    const renamed = await acme.api.PATCH('/cost-centers/v1/cost-centers/{id}', {
      params: { path: { id: cc.id } },
      body: { name: 'Operations' },
    });
    expect(renamed.response.status).toBe(200);
  });
});
