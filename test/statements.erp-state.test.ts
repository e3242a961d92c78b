// What an ERP keeps on a transaction: its metadata (PATCH, read on every representation, filtered on
// the lists and feeds) and its accounting sync state (POST /accounting/v1/syncs, `accountingSync`,
// `syncStatus`, OUT_OF_DATE after a change it posted).
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

async function bankingFixture(count: number) {
  const acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  const ids = await createBankingTransactions(
    server.db,
    acme.companyId,
    account,
    Array.from({ length: count }, () => ({ status: 2 as const })),
  );
  return { acme, ids };
}

const getBanking = async (t: TestCompany, id: number) => {
  const { data, response } = await t.api.GET('/statements/v1/banking/{transactionId}', {
    params: { path: { transactionId: id } },
  });
  expect(response.status).toBe(200);
  return { item: data!, etag: response.headers.get('etag') };
};

const patchBanking = (t: TestCompany, id: number, metadata: Record<string, string | null>) =>
  t.api.PATCH('/statements/v1/banking/{transactionId}', {
    params: { path: { transactionId: id } },
    body: { metadata },
  });

const listBanking = async (t: TestCompany, query: Record<string, unknown>) => {
  const { data, response } = await t.api.GET('/statements/v1/banking', { params: { query } });
  expect(response.status).toBe(200);
  return data!.transactions.map((x) => x.id).sort((a, b) => a - b);
};

const updates = async (t: TestCompany) => {
  const { data } = await t.api.GET('/events/v1/events', { params: { query: { limit: 100 } } });
  return data!.items.filter((e) => e.type.endsWith('.updated')).reverse();
};

describe('metadata on transactions', () => {
  it('when metadata is patched, then it merges, is shown everywhere, filters the list and the feed, and is a change', async () => {
    const { acme, ids } = await bankingFixture(3);
    const [a, b] = ids as [number, number];
    const before = await getBanking(acme, a);
    expect(before.item.metadata).toEqual({});
    const { data: start } = await acme.api.GET('/statements/v1/banking/sync', { params: { query: {} } });

    expect((await patchBanking(acme, a, { erp_id: 'JE-1', batch: 'B1' })).response.status).toBe(204);
    expect((await patchBanking(acme, b, { erp_id: 'JE-2' })).response.status).toBe(204);
    expect((await patchBanking(acme, a, { batch: null, memo: 'x' })).response.status).toBe(204);

    const after = await getBanking(acme, a);
    expect(after.item.metadata).toEqual({ erp_id: 'JE-1', memo: 'x' });
    expect(after.etag).not.toBe(before.etag);
    // The same value again is no change: no event, same ETag.
    const events = (await updates(acme)).length;
    await patchBanking(acme, a, { erp_id: 'JE-1' });
    expect((await getBanking(acme, a)).etag).toBe(after.etag);
    expect((await updates(acme)).length).toBe(events);
    expect(events).toBe(3);
    const last = (await updates(acme)).at(-1)!;
    expect(last.data.object).toMatchObject({ id: a, metadata: { erp_id: 'JE-1', memo: 'x' } });
    expect(last.data.previousAttributes).toEqual({ metadata: { erp_id: 'JE-1', batch: 'B1' } });

    expect(await listBanking(acme, { metadata: { erp_id: 'JE-1' } })).toEqual([a]);
    expect(await listBanking(acme, { metadata: { erp_id: 'JE-1', memo: 'x' } })).toEqual([a]);
    expect(await listBanking(acme, { metadata: { erp_id: 'JE-1', memo: 'y' } })).toEqual([]);
    expect(await listBanking(acme, { metadata: { erp_id: 'je-1' } })).toEqual([]);
    // As a caller writes it by hand, next to a bracketed array, which is still refused.
    const raw = (query: string) =>
      fetch(`${server.baseUrl}/statements/v1/banking?${query}`, { headers: { authorization: `Bearer ${acme.token}` } });
    const byHand = await raw('metadata%5Berp_id%5D=JE-2');
    expect(((await byHand.json()) as { transactions: Array<{ id: number }> }).transactions.map((x) => x.id)).toEqual([
      b,
    ]);
    expect((await raw('status[]=2')).status).toBe(400);
    // Beside an object parameter the validator still refuses what it does not know, and empty values.
    expect((await raw('metadata%5Berp_id%5D=JE-2&isConcilied=true')).status).toBe(400);
    expect((await raw('metadata%5Berp_id%5D=JE-2&startDate=')).status).toBe(400);

    const { data: feed } = await acme.api.GET('/statements/v1/banking/sync', {
      params: { query: { cursor: start!.nextCursor, metadata: { erp_id: 'JE-1' } } },
    });
    // A cursor is bound to its filters: the filtered feed starts over (410); without a cursor it answers the matching rows.
    expect(feed).toBeUndefined();
    const { data: filtered } = await acme.api.GET('/statements/v1/banking/sync', {
      params: { query: { metadata: { erp_id: 'JE-2' } } },
    });
    expect(filtered!.added.map((x) => x.id)).toEqual([b]);
    // Changed out of the filter: not answered again, and not removed (it still exists).
    await patchBanking(acme, b, { erp_id: 'JE-3' });
    const { data: after2 } = await acme.api.GET('/statements/v1/banking/sync', {
      params: { query: { cursor: filtered!.nextCursor, metadata: { erp_id: 'JE-2' } } },
    });
    expect([after2!.added, after2!.modified, after2!.removed]).toEqual([[], [], []]);
    const { data: changes } = await acme.api.GET('/statements/v1/banking/sync', {
      params: { query: { cursor: start!.nextCursor } },
    });
    expect(changes!.modified.find((x) => x.id === a)?.metadata).toEqual({ erp_id: 'JE-1', memo: 'x' });
  });

  it('when metadata reaches its limits, then 50 keys of 40 characters and values of 500 are kept, and one more is 400 naming metadata', async () => {
    const { acme, ids } = await bankingFixture(1);
    const id = ids[0]!;
    const key = (i: number) => `k${String(i).padStart(39, '0')}`;
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [key(i), 'v'.repeat(500)]));
    expect((await patchBanking(acme, id, fifty)).response.status).toBe(204);
    expect(Object.keys((await getBanking(acme, id)).item.metadata)).toHaveLength(50);

    const oneMore = await patchBanking(acme, id, { extra: '1' });
    expect(oneMore.response.status).toBe(400);
    expect((oneMore.error as { param?: string }).param).toBe('metadata');
    // Removing one makes room in the same request.
    expect((await patchBanking(acme, id, { extra: '1', [key(0)]: null })).response.status).toBe(204);

    const refusals: Array<Record<string, string>> = [
      { [`${key(1)}x`]: 'v' },
      { short: 'v'.repeat(501) },
      { 'bad key': 'v' },
    ];
    for (const body of refusals) {
      const refused = await patchBanking(acme, id, body);
      expect(refused.response.status).toBe(400);
      expect(expectError(refused, 400).join(' ')).toContain('metadata');
    }
    const tooMany = await patchBanking(
      acme,
      id,
      Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`n${i}`, 'v'])),
    );
    expect(tooMany.response.status).toBe(400);
  });

  it('when card transactions get metadata by batch, then the card list, item and feed show it and filter by it', async () => {
    const acme = await server.newCompany();
    const [c1, c2] = await createCreditCardTransactions(server.db, acme.companyId, [{}, {}]);
    const { response } = await acme.api.PATCH('/statements/v1/credit-card', {
      body: { transactions: [{ id: c1!, metadata: { erp_id: 'JE-9' } }] },
    });
    expect(response.status).toBe(204);
    const { data: item } = await acme.api.GET('/statements/v1/credit-card/{transactionId}', {
      params: { path: { transactionId: c2! } },
    });
    expect(item!.metadata).toEqual({});
    const { data: feed } = await acme.api.GET('/statements/v1/credit-card/sync', {
      params: { query: { metadata: { erp_id: 'JE-9' } } },
    });
    expect(feed!.added.map((x) => [x.id, x.metadata])).toEqual([[c1, { erp_id: 'JE-9' }]]);
    const { data: list } = await acme.api.GET('/statements/v1/credit-card', {
      params: { query: { metadata: { erp_id: 'JE-9' } } },
    });
    expect(list!.transactions.map((x) => x.id)).toEqual([c1]);
    const { data: notSynced } = await acme.api.GET('/statements/v1/credit-card', {
      params: { query: { syncStatus: ['NOT_SYNCED'] } },
    });
    expect(notSynced!.transactions.map((x) => x.id).sort()).toEqual([c1, c2].sort());
  });
});

describe('downloadBankingExport with metadata', () => {
  it('when metadataColumns names keys, then each is a column after the usual ones, empty where absent; the metadata filter applies; OFX refuses them', async () => {
    const { acme, ids } = await bankingFixture(3);
    const [a, b] = ids as [number, number];
    await patchBanking(acme, a, { erp_id: 'JE-1', 'netsuite.id': '=7' });
    await patchBanking(acme, b, { erp_id: 'JE-2' });
    const download = (query: string) =>
      fetch(`${server.baseUrl}/statements/v1/exports/${query}`, { headers: { authorization: `Bearer ${acme.token}` } });
    const csv = await download('banking?format=csv&metadataColumns=netsuite.id,erp_id,none');
    expect(csv.status).toBe(200);
    const [header, ...rows] = (await csv.text()).trim().split('\r\n');
    expect(header!.split(',').slice(-3)).toEqual(['metadata.netsuite.id', 'metadata.erp_id', 'metadata.none']);
    // Newest first (the list's order); a value read as a formula is neutralized like any text cell.
    const tails = rows.map((row) => row.split(',').slice(-3).join(','));
    expect(tails.sort()).toEqual([',,', ',JE-2,', '"\'=7",JE-1,'].sort());
    const filtered = await download('banking?format=csv&metadata%5Berp_id%5D=JE-2');
    expect((await filtered.text()).trim().split('\r\n')).toHaveLength(2);
    expect((await download('banking?format=ofx&metadataColumns=erp_id')).status).toBe(400);
    const cards = await download('credit-card?format=csv&metadataColumns=erp_id');
    expect((await cards.text()).split('\r\n')[0]!.endsWith(',metadata.erp_id')).toBe(true);
  });
});

const sync = (t: TestCompany, body: Record<string, unknown>, key?: string) =>
  t.api.POST('/accounting/v1/syncs', {
    body: body as never,
    ...(key ? { params: { header: { 'Idempotency-Key': key } } } : {}),
  });

describe('createAccountingSync', () => {
  it('when the ERP posts one and fails one, then both states show, filter, replay under the key, and a later edit is OUT_OF_DATE with an event', async () => {
    const { acme, ids } = await bankingFixture(3);
    const [posted, failed, untouched] = ids as [number, number, number];
    const key = randomUUID();
    const body = {
      statement: 'banking',
      successful: [{ id: posted, referenceId: 'JE-2026-00042' }],
      failed: [{ id: failed, error: { message: 'Account 6.1.02 is closed' } }],
    };
    const first = await sync(acme, body, key);
    expect(first.response.status).toBe(201);
    expect(first.data).toMatchObject({ statement: 'banking', successful: 1, failed: 1, unsynced: 0, changed: 2 });

    const { data: list } = await acme.api.GET('/statements/v1/banking', { params: { query: {} } });
    const state = (id: number) => list!.transactions.find((x) => x.id === id)!.accountingSync;
    expect(state(posted)).toMatchObject({ status: 'SYNCED', referenceId: 'JE-2026-00042', error: null });
    expect(state(posted).syncedAt).toEqual(expect.any(String));
    expect(state(failed)).toMatchObject({
      status: 'FAILED',
      referenceId: null,
      error: { message: 'Account 6.1.02 is closed' },
    });
    expect(state(untouched)).toEqual({ status: 'NOT_SYNCED', referenceId: null, error: null, syncedAt: null });

    expect(await listBanking(acme, { syncStatus: ['SYNCED'] })).toEqual([posted]);
    expect(await listBanking(acme, { syncStatus: ['FAILED', 'NOT_SYNCED'] })).toEqual([failed, untouched]);
    const { data: summary } = await acme.api.GET('/statements/v1/banking/summary', {
      params: { query: { syncStatus: ['FAILED', 'NOT_SYNCED'] } },
    });
    expect(summary!.total.count).toBe(2);

    // The retry answers the first call; the audit log has one entry.
    const replay = await sync(acme, body, key);
    expect(replay.response.status).toBe(201);
    expect(replay.data).toEqual(first.data);
    const audit = await acme.api.GET('/audit/v1/entries', {
      params: { query: { actions: ['accounting_sync.recorded'] } },
    });
    expect(audit.response.status).toBe(200);
    expect(audit.data!.items.map(({ target, details }) => ({ target, details }))).toEqual([
      { target: 'banking', details: { successful: 1, failed: 1, unsynced: 0, changed: 2 } },
    ]);

    // Metadata is the ERP's own: no re-post. A new category is: OUT_OF_DATE, with its event.
    await patchBanking(acme, posted, { erp_id: 'JE-2026-00042' });
    expect((await getBanking(acme, posted)).item.accountingSync.status).toBe('SYNCED');
    const category = await createCategory(server.db, acme.companyId);
    await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: posted } },
      body: { categoryId: category.id },
    });
    const changed = (await getBanking(acme, posted)).item.accountingSync;
    expect(changed).toMatchObject({ status: 'OUT_OF_DATE', referenceId: 'JE-2026-00042' });
    const event = (await updates(acme)).at(-1)!;
    expect(event.data.object).toMatchObject({ id: posted, accountingSync: { status: 'OUT_OF_DATE' } });
    expect(event.data.previousAttributes).toMatchObject({ accountingSync: { status: 'SYNCED' } });
    expect(await listBanking(acme, { syncStatus: ['OUT_OF_DATE', 'NOT_SYNCED'] })).toEqual([posted, untouched]);

    // Posted again, then the journal entry reversed: back to NOT_SYNCED.
    await sync(acme, { statement: 'banking', successful: [{ id: posted, referenceId: 'JE-2026-00050' }] });
    expect((await getBanking(acme, posted)).item.accountingSync).toMatchObject({ referenceId: 'JE-2026-00050' });
    // A deleted cost center the ERP posted the transaction with: out of date too.
    const costCenter = await createCostCenter(server.db, acme.companyId);
    await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: untouched } },
      body: { costCenterId: costCenter.id },
    });
    await sync(acme, { statement: 'banking', successful: [{ id: untouched, referenceId: 'JE-2026-00051' }] });
    const deleted = await acme.api.DELETE('/cost-centers/v1/cost-centers/{id}', {
      params: { path: { id: costCenter.id } },
    });
    expect(deleted.response.status).toBe(204);
    expect((await getBanking(acme, untouched)).item.accountingSync.status).toBe('OUT_OF_DATE');
    expect((await getBanking(acme, posted)).item.accountingSync.status).toBe('SYNCED');

    const undo = await sync(acme, { statement: 'banking', unsynced: [{ id: posted }] });
    expect(undo.data).toMatchObject({ unsynced: 1, changed: 1 });
    expect((await getBanking(acme, posted)).item.accountingSync.status).toBe('NOT_SYNCED');
  });

  it('when a transaction is not the company’s or is sent twice, then 400 names it and nothing is recorded', async () => {
    const { acme, ids } = await bankingFixture(1);
    const other = await bankingFixture(1);
    const id = ids[0]!;
    const unknown = await sync(acme, {
      statement: 'banking',
      successful: [{ id, referenceId: 'JE-1' }],
      failed: [{ id: other.ids[0], error: { message: 'x' } }],
    });
    expect(unknown.response.status).toBe(400);
    expect((unknown.error as { param?: string }).param).toBe('failed.0.id');
    expect((await getBanking(acme, id)).item.accountingSync.status).toBe('NOT_SYNCED');

    const twice = await sync(acme, {
      statement: 'banking',
      successful: [{ id, referenceId: 'JE-1' }],
      unsynced: [{ id }],
    });
    expect((twice.error as { param?: string }).param).toBe('unsynced.0.id');
    const wrongKind = await sync(acme, { statement: 'credit-card', unsynced: [{ id }] });
    expect((wrongKind.error as { param?: string }).param).toBe('unsynced.0.id');
    expect((await sync(acme, { statement: 'banking' })).response.status).toBe(400);
    const ulids = await createCreditCardTransactions(server.db, acme.companyId, [{}]);
    const card = await sync(acme, { statement: 'credit-card', failed: [{ id: ulids[0], error: { message: 'no' } }] });
    expect(card.response.status).toBe(201);
    const { data } = await acme.api.GET('/statements/v1/credit-card/sync', {
      params: { query: { syncStatus: ['FAILED'] } },
    });
    expect(data!.added.map((x) => x.id)).toEqual([ulids[0]]);
    await createCreditCardTransactions(server.db, acme.companyId, [{}]);
    const { data: list } = await acme.api.GET('/statements/v1/credit-card', {
      params: { query: { syncStatus: ['FAILED'] } },
    });
    expect(list!.transactions.map((x) => [x.id, x.accountingSync.error])).toEqual([[ulids[0], { message: 'no' }]]);
    const { data: summary } = await acme.api.GET('/statements/v1/credit-card/summary', {
      params: { query: { syncStatus: ['FAILED'] } },
    });
    expect(summary!.total.count).toBe(1);
    const csv = await fetch(`${server.baseUrl}/statements/v1/exports/credit-card?format=csv&syncStatus=FAILED`, {
      headers: { authorization: `Bearer ${acme.token}` },
    });
    expect((await csv.text()).trim().split('\r\n')).toHaveLength(2);
  });
});
