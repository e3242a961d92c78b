import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createCategory, createCostCenter, expectError } from './support/factories/directory.js';
import {
  createAccount,
  createBankingTransaction,
  createCreditCardTransaction,
} from './support/factories/statements.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

// Bodies the types refuse (isConciled: false) are sent on purpose: the server must refuse them too.
type Body = { notes?: string; isConciled?: true; categoryId?: number; costCenterId?: string };
const BANKING = '/statements/v1/banking/{transactionId}';
const CARD = '/statements/v1/credit-card/{transactionId}';

const patchBanking = (t: TestCompany, id: number, body: Record<string, unknown>) =>
  t.api.PATCH(BANKING, { params: { path: { transactionId: id } }, body: body as Body });
const patchCard = (t: TestCompany, id: string, body: Record<string, unknown>) =>
  t.api.PATCH(CARD, { params: { path: { transactionId: id } }, body: body as Body });

const bankingRow = (id: number) =>
  server.db.selectFrom('banking_transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const cardRow = (id: string) =>
  server.db.selectFrom('credit_card_transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function bankingFixture(status: 1 | 2 | 3 = 2) {
  const acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  const id = await createBankingTransaction(server.db, acme.companyId, account, { status });
  return { acme, id };
}

describe('reconcileBankingTransaction', () => {
  it('when every field is sent for a processed transaction, then 204 without body and all of them are stored', async () => {
    const { acme, id } = await bankingFixture();
    const category = await createCategory(server.db, acme.companyId);
    const costCenter = await createCostCenter(server.db, acme.companyId);
    const { response } = await patchBanking(acme, id, {
      notes: 'Almoço com cliente',
      isConciled: true,
      categoryId: category.id,
      costCenterId: costCenter.id,
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    const row = await bankingRow(id);
    expect(row).toMatchObject({
      notes: 'Almoço com cliente',
      conciled: 1,
      custom_category_id: category.id,
      cost_center_id: costCenter.id,
    });
    expect(row.conciled_at).toBe(server.clock.now().toISOString());

    const { data } = await acme.api.GET('/statements/v1/banking');
    expect(data?.transactions[0]).toMatchObject({
      id,
      notes: 'Almoço com cliente',
      conciliation: { conciled: true, description: 'Reconciled' },
      customCategory: { id: category.id, name: category.name },
      costCenter: { id: costCenter.id, description: costCenter.name },
    });
  });

  it('when notes are exactly 1000 characters, then stored; 1001 characters, then 400 and nothing changes', async () => {
    const { acme, id } = await bankingFixture();
    expect((await patchBanking(acme, id, { notes: 'x'.repeat(1000) })).response.status).toBe(204);
    expectError(await patchBanking(acme, id, { notes: 'y'.repeat(1001) }), 400);
    expect((await bankingRow(id)).notes).toBe('x'.repeat(1000));
  });

  it('when notes is an empty string, then the notes are cleared', async () => {
    const { acme, id } = await bankingFixture();
    await patchBanking(acme, id, { notes: 'Reembolso' });
    expect((await patchBanking(acme, id, { notes: '' })).response.status).toBe(204);
    expect((await bankingRow(id)).notes).toBe('');
  });

  it('when the body is empty or has an unknown field, then 400', async () => {
    const { acme, id } = await bankingFixture();
    expectError(await patchBanking(acme, id, {}), 400);
    expectError(await patchBanking(acme, id, { notes: 'a', reconciled: true }), 400);
    expectError(await patchBanking(acme, id, { isConciled: 'yes' }), 400);
  });

  it('when isConciled is false, then 400, also on a reconciled transaction, which stays reconciled', async () => {
    const { acme, id } = await bankingFixture();
    expectError(await patchBanking(acme, id, { isConciled: false }), 400);
    await patchBanking(acme, id, { isConciled: true });
    const details = expectError(await patchBanking(acme, id, { isConciled: false, notes: 'desfazer' }), 400);
    expect(details.join(' ')).toMatch(/isConciled/);
    expect(await bankingRow(id)).toMatchObject({ conciled: 1, notes: '' });
  });

  it('when the transaction is already reconciled, then isConciled true answers 204 and changes nothing', async () => {
    const { acme, id } = await bankingFixture();
    await patchBanking(acme, id, { isConciled: true });
    const first = (await bankingRow(id)).conciled_at;
    server.clock.advance(60_000);
    expect((await patchBanking(acme, id, { isConciled: true })).response.status).toBe(204);
    expect((await bankingRow(id)).conciled_at).toBe(first);
  });

  it.each([
    [1, 'CANCELED'],
    [3, 'PENDING'],
  ] as const)(
    'when the status is %i (%s), then reconciling is 409 and nothing of the request applies',
    async (status, name) => {
      const { acme, id } = await bankingFixture(status);
      const details = expectError(await patchBanking(acme, id, { isConciled: true, notes: 'conferido' }), 409);
      expect(details.join(' ')).toContain(name);
      expect(await bankingRow(id)).toMatchObject({ conciled: 0, notes: '' });
      expect((await patchBanking(acme, id, { notes: 'só a nota' })).response.status).toBe(204);
    },
  );

  it("when categoryId or costCenterId is not the company's, then 400 and nothing changes", async () => {
    const { acme, id } = await bankingFixture();
    const globex = await server.newCompany();
    const foreignCategory = await createCategory(server.db, globex.companyId);
    const foreignCostCenter = await createCostCenter(server.db, globex.companyId);
    expectError(await patchBanking(acme, id, { notes: 'n', categoryId: foreignCategory.id }), 400);
    expectError(await patchBanking(acme, id, { notes: 'n', costCenterId: foreignCostCenter.id }), 400);
    expectError(await patchBanking(acme, id, { costCenterId: randomUUID() }), 400);
    expectError(await patchBanking(acme, id, { categoryId: 999_999, isConciled: true }), 400);
    expect(await bankingRow(id)).toMatchObject({
      notes: '',
      conciled: 0,
      custom_category_id: null,
      cost_center_id: null,
    });
  });

  it("when the transaction is absent or another company's, then 404", async () => {
    const { acme, id } = await bankingFixture();
    const globex = await server.newCompany();
    expectError(await patchBanking(globex, id, { notes: 'x' }), 404);
    expectError(await patchBanking(acme, 987_654_321, { notes: 'x' }), 404);
    expectError(await patchBanking(acme, 0, { notes: 'x' }), 400);
  });

  it('when concurrent PATCHes hit one transaction, then the row ends consistent with one of them', async () => {
    const { acme, id } = await bankingFixture();
    const categories = await Promise.all([1, 2, 3, 4].map(() => createCategory(server.db, acme.companyId)));
    const results = await Promise.all(
      categories.map((c, i) => patchBanking(acme, id, { notes: `nota ${i}`, categoryId: c.id, isConciled: true })),
    );
    expect(results.map((r) => r.response.status)).toEqual([204, 204, 204, 204]);
    const row = await bankingRow(id);
    const winner = categories.findIndex((c) => c.id === row.custom_category_id);
    expect(winner).toBeGreaterThanOrEqual(0);
    expect(row.notes).toBe(`nota ${winner}`);
    expect(row.conciled).toBe(1);
  });

  it('when the token lacks statements:write, then 403; without a token, 401', async () => {
    const { id } = await bankingFixture();
    const reader = await server.newCompany({ scopes: ['statements:read'] });
    expectError(await patchBanking(reader, id, { notes: 'x' }), 403);
    expectError(
      await server.anonymous.PATCH(BANKING, { params: { path: { transactionId: id } }, body: { notes: 'x' } }),
      401,
    );
  });
});

describe('reconcileCreditCardTransaction', () => {
  it('when fields are sent for a processed record, then 204 and they are stored', async () => {
    const acme = await server.newCompany();
    const id = await createCreditCardTransaction(server.db, acme.companyId);
    const costCenter = await createCostCenter(server.db, acme.companyId);
    const { response } = await patchCard(acme, id, {
      notes: 'AWS produção',
      isConciled: true,
      costCenterId: costCenter.id,
    });
    expect(response.status).toBe(204);
    expect(await cardRow(id)).toMatchObject({ notes: 'AWS produção', conciled: 1, cost_center_id: costCenter.id });
  });

  it('when the record is pending, then reconciling is 409; isConciled false is 400', async () => {
    const acme = await server.newCompany();
    const id = await createCreditCardTransaction(server.db, acme.companyId, { status: 3 });
    expectError(await patchCard(acme, id, { isConciled: true }), 409);
    expectError(await patchCard(acme, id, { isConciled: false }), 400);
    expect((await cardRow(id)).conciled).toBe(0);
  });

  it("when the id is not a ULID, then 400; absent or another company's, then 404", async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const id = await createCreditCardTransaction(server.db, acme.companyId);
    expectError(await patchCard(acme, '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6', { notes: 'x' }), 400);
    expectError(await patchCard(acme, id.toLowerCase(), { notes: 'x' }), 400);
    expectError(await patchCard(acme, '01JD3Q5W2K8Z9Y7X6V5T4S3R2Q', { notes: 'x' }), 404);
    expectError(await patchCard(globex, id, { notes: 'x' }), 404);
  });

  it('when the category is unknown, then 400', async () => {
    const acme = await server.newCompany();
    const id = await createCreditCardTransaction(server.db, acme.companyId);
    expectError(await patchCard(acme, id, { categoryId: 424242 }), 400);
  });
});
