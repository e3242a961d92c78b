// Batch write-back: PATCH on the statement collections annotates 1–100 transactions at once, each
// under the single PATCH's rules, all or nothing in one database transaction.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createCostCenter, expectError } from './support/factories/directory.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ deliveries: 'manual' });
});
afterAll(async () => server.close());

type Item = { id: number; notes?: string; isConciled?: true; categoryId?: number; costCenterId?: string };
type CardItem = Omit<Item, 'id'> & { id: string };

const patchBanking = (t: TestCompany, transactions: Array<Record<string, unknown>>, key?: string) =>
  t.api.PATCH('/statements/v1/banking', {
    body: { transactions: transactions as Item[] },
    ...(key ? { params: { header: { 'Idempotency-Key': key } } } : {}),
  });
const patchCards = (t: TestCompany, transactions: Array<Record<string, unknown>>) =>
  t.api.PATCH('/statements/v1/credit-card', { body: { transactions: transactions as CardItem[] } });

const bankingRows = (ids: number[]) =>
  server.db.selectFrom('banking_transactions').selectAll().where('id', 'in', ids).orderBy('id').execute();

/** The change events the company has, oldest first (the `*.created` events of the fixtures left out). */
async function changeEvents(t: TestCompany) {
  const { data } = await t.api.GET('/events/v1/events', { params: { query: { limit: 100 } } });
  return data!.items.filter((e) => /\.(updated|reconciled)$/.test(e.type)).reverse();
}

async function bankingFixture(count: number, status: 1 | 2 | 3 = 2) {
  const acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  const ids = await createBankingTransactions(
    server.db,
    acme.companyId,
    account,
    Array.from({ length: count }, () => ({ status })),
  );
  return { acme, ids };
}

describe('reconcileBankingTransactions', () => {
  it('when every item is good, then 204, every item is stored and one event per changed transaction is recorded', async () => {
    const { acme, ids } = await bankingFixture(3);
    const category = await createCategory(server.db, acme.companyId);
    const costCenter = await createCostCenter(server.db, acme.companyId);
    const { response } = await patchBanking(acme, [
      { id: ids[0], notes: 'Almoço com cliente', categoryId: category.id },
      { id: ids[1], isConciled: true, costCenterId: costCenter.id },
      { id: ids[2], notes: 'Táxi' },
    ]);
    expect(response.status).toBe(204);
    const rows = await bankingRows(ids);
    expect(rows[0]).toMatchObject({ notes: 'Almoço com cliente', custom_category_id: category.id, conciled: 0 });
    expect(rows[1]).toMatchObject({ conciled: 1, cost_center_id: costCenter.id });
    const events = await changeEvents(acme);
    expect(events.map((e) => [e.type, (e.data.object as { id: number }).id])).toEqual([
      ['banking_transaction.updated', ids[0]],
      ['banking_transaction.reconciled', ids[1]],
      ['banking_transaction.updated', ids[2]],
    ]);
  });

  it('when one item names a cost center of another company, then 400 naming it, nothing changed and no event', async () => {
    const { acme, ids } = await bankingFixture(3);
    const other = await server.newCompany();
    const foreign = await createCostCenter(server.db, other.companyId);
    const result = await patchBanking(acme, [
      { id: ids[0], notes: 'changed?' },
      { id: ids[1], costCenterId: foreign.id },
      { id: ids[2], isConciled: true },
    ]);
    const details = expectError(result, 400);
    expect(details).toEqual([`transactions.1.costCenterId: ${foreign.id} is not a cost center of the company`]);
    expect((result.error as { param?: string }).param).toBe('transactions.1.costCenterId');
    expect((await bankingRows(ids)).map((r) => [r.notes, r.conciled])).toEqual([
      ['', 0],
      ['', 0],
      ['', 0],
    ]);
    expect(await changeEvents(acme)).toEqual([]);
  });

  it('when several items fail for different reasons, then the status is the first failure’s and details name every failing item', async () => {
    const { acme, ids } = await bankingFixture(2, 3); // pending: cannot be reconciled
    const result = await patchBanking(acme, [
      { id: ids[0], notes: 'fine' },
      { id: ids[1], isConciled: true },
      { id: 999_999_999, notes: 'nobody' },
      { id: ids[0], categoryId: 2_000_000_000 },
    ]);
    // ids[0] twice: the batch is refused before the store is read.
    expect(expectError(result, 400)).toEqual([`transactions.3.id: ${ids[0]} is already item 0 of the batch`]);

    const mixed = await patchBanking(acme, [
      { id: ids[0], notes: 'fine' },
      { id: ids[1], isConciled: true },
      { id: 999_999_999, notes: 'nobody' },
    ]);
    expect(expectError(mixed, 409)).toEqual([
      'transactions.1.isConciled: only processed transactions (status 2) can be reconciled; this one is PENDING',
      'transactions.2.id: transaction not found',
    ]);
    expect((await bankingRows(ids)).map((r) => r.notes)).toEqual(['', '']);
    expect(await changeEvents(acme)).toEqual([]);
  });

  it('when an item is a transaction of another company, then 404 as the single PATCH answers, and nothing changed', async () => {
    const { acme, ids } = await bankingFixture(1);
    const { acme: other, ids: theirs } = await bankingFixture(1);
    const result = await patchBanking(acme, [
      { id: ids[0], notes: 'mine' },
      { id: theirs[0], notes: 'theirs' },
    ]);
    expect(expectError(result, 404)).toEqual(['transactions.1.id: transaction not found']);
    expect((await bankingRows([...ids, ...theirs])).map((r) => r.notes)).toEqual(['', '']);
    expect(await changeEvents(other)).toEqual([]);
  });

  it('when the batch has 0 or 101 items, an item without a field or isConciled false, then 400 and nothing changed', async () => {
    const { acme, ids } = await bankingFixture(101);
    expectError(await patchBanking(acme, []), 400);
    expectError(
      await patchBanking(
        acme,
        ids.map((id) => ({ id, notes: 'too many' })),
      ),
      400,
    );
    expectError(await patchBanking(acme, [{ id: ids[0] }]), 400);
    expectError(await patchBanking(acme, [{ id: ids[0], isConciled: false }]), 400);
    expect((await bankingRows(ids)).every((r) => r.notes === '')).toBe(true);
  });

  it('when the batch has exactly 100 items, then all 100 change, with 100 events', async () => {
    const { acme, ids } = await bankingFixture(100);
    const { response } = await patchBanking(
      acme,
      ids.map((id, i) => ({ id, notes: `note ${i}` })),
    );
    expect(response.status).toBe(204);
    expect((await bankingRows(ids)).map((r) => r.notes)).toEqual(ids.map((_, i) => `note ${i}`));
    const { data } = await acme.api.GET('/events/v1/events', {
      params: { query: { limit: 100, types: ['banking_transaction.updated'] } },
    });
    expect(data!.items).toHaveLength(100);
  });

  it('when sent again with the same Idempotency-Key, then the first answer is replayed and nothing is recorded twice', async () => {
    const { acme, ids } = await bankingFixture(2);
    const key = randomUUID();
    const body = ids.map((id) => ({ id, notes: 'once' }));
    expect((await patchBanking(acme, body, key)).response.status).toBe(204);
    const again = await patchBanking(acme, body, key);
    expect(again.response.status).toBe(204);
    expect(again.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await changeEvents(acme)).toHaveLength(2);
    expectError(await patchBanking(acme, [{ id: ids[0], notes: 'other' }], key), 422);
  });

  it('when the batch changes transactions, then the change feed returns each once as modified', async () => {
    const { acme, ids } = await bankingFixture(2);
    const initial = await acme.api.GET('/statements/v1/banking/sync');
    const cursor = initial.data!.nextCursor;
    expect(
      (
        await patchBanking(acme, [
          { id: ids[0], notes: 'a' },
          { id: ids[1], notes: 'b' },
        ])
      ).response.status,
    ).toBe(204);
    const { data } = await acme.api.GET('/statements/v1/banking/sync', { params: { query: { cursor } } });
    expect(data!.modified.map((t) => [t.id, t.notes])).toEqual([
      [ids[0], 'a'],
      [ids[1], 'b'],
    ]);
    expect(data!.hasMore).toBe(false);
  });
});

describe('reconcileCreditCardTransactions', () => {
  it('when every item is good, then 204 and all change; when one is unknown, then 404 and nothing changes', async () => {
    const acme = await server.newCompany();
    const ids = await createCreditCardTransactions(server.db, acme.companyId, [{}, {}]);
    const cardNotes = async () =>
      (
        await server.db
          .selectFrom('credit_card_transactions')
          .select('notes')
          .where('id', 'in', ids)
          .orderBy('id')
          .execute()
      ).map((r) => r.notes);

    const refused = await patchCards(acme, [
      { id: ids[0], notes: 'x' },
      { id: '01JD3Q5W2K8Z9Y7X6V5T4S3R2Q', notes: 'y' },
    ]);
    expect(expectError(refused, 404)).toEqual(['transactions.1.id: transaction not found']);
    expect(await cardNotes()).toEqual(['', '']);

    const { response } = await patchCards(acme, [
      { id: ids[0], notes: 'first', isConciled: true },
      { id: ids[1], notes: 'second' },
    ]);
    expect(response.status).toBe(204);
    expect(await cardNotes()).toEqual(['first', 'second']);
    expect((await changeEvents(acme)).map((e) => e.type)).toEqual([
      'credit_card_transaction.reconciled',
      'credit_card_transaction.updated',
    ]);
  });
});
