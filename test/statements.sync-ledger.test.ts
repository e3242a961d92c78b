// The change feeds keep an integrator's ledger right: rows are `added` until this cursor's client was
// sent them (whatever was edited before or during the initial pass), `removed` is real (a pending
// transaction dropped), a write that changes nothing is no change, the batch write-back is
// conflict-safe, renames are announced, and a cursor of another store history is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { components } from '../generated/openapi.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { freshDatabase, onPostgres } from './support/database.js';
import { createCostCenter } from './support/factories/directory.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';
import { beginNewHistory } from '../server/areas/statements/history.js';
import { ingestFile, IngestRejected } from '../server/areas/statements/ingest/run.js';
import { writeFileSync } from 'node:fs';

type Changes = components['schemas']['BankingTransactionChanges'];
type Banking = components['schemas']['BankingTransaction'];

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'sync-ledger-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const BANKING_SYNC = '/statements/v1/banking/sync';

async function page(t: TestCompany, cursor: string | undefined, limit: number): Promise<Changes> {
  const { data, response } = await t.api.GET(BANKING_SYNC, { params: { query: { cursor, limit } } });
  expect(response.status).toBe(200);
  return data!;
}

/** An integrator's copy of the statement: `added` and `modified` upserted, `removed` dropped. */
class Ledger {
  rows = new Map<number, Banking>();
  apply(p: Changes): void {
    const ids = [...p.added, ...p.modified].map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const t of [...p.added, ...p.modified]) this.rows.set(t.id, t);
    for (const { id } of p.removed) this.rows.delete(Number(id));
  }
}

async function list(t: TestCompany): Promise<Banking[]> {
  const out: Banking[] = [];
  for await (const tx of pages(t)) out.push(tx);
  return out.sort((a, b) => a.id - b.id);
}

async function* pages(t: TestCompany) {
  let nextPageStartKey: string | undefined;
  do {
    const { data } = await t.api.GET('/statements/v1/banking', { params: { query: { limit: 50, nextPageStartKey } } });
    yield* data!.transactions;
    nextPageStartKey = data!.nextPageStartKey;
  } while (nextPageStartKey);
}

const patchNotes = (t: TestCompany, id: number, notes: string) =>
  t.api.PATCH('/statements/v1/banking/{transactionId}', { params: { path: { transactionId: id } }, body: { notes } });

async function eventsOf(t: TestCompany, type: components['schemas']['EventTypeName']) {
  const { data } = await t.api.GET('/events/v1/events', { params: { query: { types: [type], limit: 100 } } });
  return data!.items;
}

async function company(rows = 12) {
  const t = await server.newCompany();
  const account = await createAccount(server.db, t.companyId);
  const ids = await createBankingTransactions(
    server.db,
    t.companyId,
    account,
    Array.from({ length: rows }, (_, i) => ({ status: i % 3 === 0 ? (3 as const) : (2 as const) })),
  );
  return { t, account, ids };
}

describe('listBankingTransactionChanges: classification by what the client was sent', () => {
  it('when rows were edited (single, batch, sandbox) before the initial pass, then every listed row comes once in added and nothing else', async () => {
    const { t, account, ids } = await company(14);
    expect((await patchNotes(t, ids[0]!, 'single')).response.status).toBe(204);
    const batch = await t.api.PATCH('/statements/v1/banking', {
      body: {
        transactions: [
          { id: ids[1]!, notes: 'batch' },
          { id: ids[5]!, isConciled: true },
        ],
      },
    });
    expect(batch.response.status).toBe(204);
    const [late] = await createBankingTransactions(server.db, t.companyId, account, [{ status: 3 }]);
    expect((await patchNotes(t, late!, 'edited after it arrived')).response.status).toBe(204);

    const ledger = new Ledger();
    const added: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      const p = await page(t, cursor, 4);
      expect(p.modified).toEqual([]);
      expect(p.removed).toEqual([]);
      added.push(...p.added.map((a) => a.id));
      ledger.apply(p);
      cursor = p.nextCursor;
      if (!p.hasMore) break;
    }
    const listed = await list(t);
    expect(added.sort((a, b) => a - b)).toEqual(listed.map((r) => r.id));
    expect([...ledger.rows.values()].sort((a, b) => a.id - b.id)).toEqual(listed);
  });

  it('when rows are edited, created and removed between the pages of the initial pass, then the ledger equals the list', async () => {
    const { t, account, ids } = await company(12);
    const ledger = new Ledger();
    const first = await page(t, undefined, 3);
    ledger.apply(first);
    const sent = first.added[0]!.id;
    const notSent = ids.find((id) => !first.added.some((a) => a.id === id))!;
    expect((await patchNotes(t, sent, 'edited after it was sent')).response.status).toBe(204);
    expect((await patchNotes(t, notSent, 'edited before it was sent')).response.status).toBe(204);
    const [fresh] = await createBankingTransactions(server.db, t.companyId, account, [{ status: 3 }]);
    const pending = ids.filter((id, i) => i % 3 === 0 && id !== sent && id !== notSent);
    for (const id of pending.slice(0, 2)) {
      const removed = await t.api.DELETE('/sandbox/v1/banking-transactions/{transactionId}', {
        params: { path: { transactionId: id } },
      });
      expect(removed.response.status).toBe(204);
    }
    let cursor = first.nextCursor;
    let more = first.hasMore;
    const addedLater: number[] = [];
    while (more) {
      const p = await page(t, cursor, 3);
      ledger.apply(p);
      addedLater.push(...p.added.map((a) => a.id));
      cursor = p.nextCursor;
      more = p.hasMore;
    }
    // A row not yet sent comes as added, edited or not; so does a row created during the pass.
    expect(addedLater).toContain(notSent);
    expect(addedLater).toContain(fresh);
    expect([...ledger.rows.values()].sort((a, b) => a.id - b.id)).toEqual(await list(t));

    // Caught up: a new row edited before the next poll is added; an old row edited is modified.
    const [newer] = await createBankingTransactions(server.db, t.companyId, account, [{}]);
    expect((await patchNotes(t, newer!, 'new and edited')).response.status).toBe(204);
    expect((await patchNotes(t, sent, 'edited again')).response.status).toBe(204);
    const poll = await page(t, cursor, 50);
    expect(poll.added.map((a) => a.id)).toEqual([newer]);
    expect(poll.modified.map((m) => m.id)).toEqual([sent]);
    ledger.apply(poll);
    expect([...ledger.rows.values()].sort((a, b) => a.id - b.id)).toEqual(await list(t));
  });

  it('when the cursor is empty or sent as an array, then 400 naming cursor', async () => {
    const t = await server.newCompany();
    const empty = await fetch(`${server.baseUrl}${BANKING_SYNC}?cursor=`, {
      headers: { Authorization: `Bearer ${t.token}` },
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ param: 'cursor' });
    const array = await fetch(`${server.baseUrl}${BANKING_SYNC}?cursor[]=x`, {
      headers: { Authorization: `Bearer ${t.token}` },
    });
    expect(array.status).toBe(400);
    expect(await array.json()).toMatchObject({ param: 'cursor' });
  });
});

describe('deleteSandboxBankingTransaction (a pending transaction the provider drops)', () => {
  it('when a pending banking transaction is dropped, then it leaves the list, its item is 404, it comes once in removed and as an event', async () => {
    const { t, ids } = await company(6);
    const start = await page(t, undefined, 50);
    const [pendingId, processedId] = [ids[0]!, ids[1]!];
    const path = (transactionId: number) => ({ params: { path: { transactionId } } });
    expect(
      (await t.api.DELETE('/sandbox/v1/banking-transactions/{transactionId}', path(pendingId))).response.status,
    ).toBe(204);
    const refused = await t.api.DELETE('/sandbox/v1/banking-transactions/{transactionId}', path(processedId));
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({ reason: 'conflict', param: 'transactionId' });
    const other = await server.newCompany();
    expect(
      (await other.api.DELETE('/sandbox/v1/banking-transactions/{transactionId}', path(ids[3]!))).response.status,
    ).toBe(404);

    expect((await t.api.GET('/statements/v1/banking/{transactionId}', path(pendingId))).response.status).toBe(404);
    expect((await list(t)).map((r) => r.id)).not.toContain(pendingId);
    const caught = await page(t, start.nextCursor, 50);
    expect(caught).toMatchObject({ added: [], modified: [], removed: [{ id: pendingId }] });
    expect(await page(t, caught.nextCursor, 50)).toMatchObject({ removed: [] });
    const [event] = await eventsOf(t, 'banking_transaction.removed');
    expect(event!.data.object).toMatchObject({ id: pendingId, statusDescription: 'PENDING' });
    // An initial pass after the removal never carries it.
    expect((await page(t, undefined, 50)).removed).toEqual([]);
  });
});

describe('deleteSandboxCreditCardTransaction (a pending card transaction the issuer drops)', () => {
  it('when a pending credit-card transaction is dropped, then the card feed answers it in removed', async () => {
    const t = await server.newCompany();
    const [pending, processed] = await createCreditCardTransactions(server.db, t.companyId, [{ status: 3 }, {}]);
    const start = await t.api.GET('/statements/v1/credit-card/sync', { params: { query: { limit: 50 } } });
    const path = (transactionId: string) => ({ params: { path: { transactionId } } });
    expect(
      (await t.api.DELETE('/sandbox/v1/credit-card-transactions/{transactionId}', path(pending!))).response.status,
    ).toBe(204);
    expect(
      (await t.api.DELETE('/sandbox/v1/credit-card-transactions/{transactionId}', path(processed!))).response.status,
    ).toBe(409);
    expect((await t.api.GET('/statements/v1/credit-card/{transactionId}', path(pending!))).response.status).toBe(404);
    const caught = await t.api.GET('/statements/v1/credit-card/sync', {
      params: { query: { cursor: start.data!.nextCursor } },
    });
    expect(caught.data).toMatchObject({ added: [], modified: [], removed: [{ id: pending }] });
    expect(await eventsOf(t, 'credit_card_transaction.removed')).toHaveLength(1);
  });
});

describe('removed through the ingest', () => {
  it('when a file drops a pending transaction, then it is removed once (again harmless); a processed or unknown one refuses the whole file', async () => {
    const { t, ids } = await company(3);
    const start = await page(t, undefined, 50);
    const file = (name: string, lines: unknown[]) => {
      const path = join(dir, name);
      writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      return path;
    };
    const refused = file('refused.jsonl', [
      { statement: 'banking', remove: ids[0] },
      { statement: 'banking', remove: ids[1] },
      { statement: 'banking', remove: 999_999_999 },
    ]);
    const error = await ingestFile(server.db, server.index, t.companyId, refused, server.clock.now()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IngestRejected);
    expect((error as IngestRejected).problems.map((p) => p.line)).toEqual([2, 3]);
    expect((await list(t)).map((r) => r.id)).toContain(ids[0]);

    const drop = file('drop.jsonl', [{ statement: 'banking', remove: ids[0] }]);
    expect(await ingestFile(server.db, server.index, t.companyId, drop, server.clock.now())).toMatchObject({
      removed: 1,
    });
    expect(await ingestFile(server.db, server.index, t.companyId, drop, server.clock.now())).toMatchObject({
      removed: 0,
    });
    expect((await list(t)).map((r) => r.id)).not.toContain(ids[0]);
    const caught = await page(t, start.nextCursor, 50);
    expect(caught.removed).toEqual([{ id: ids[0] }]);
  });
});

describe('writes that change nothing, and conflict-safe write-back', () => {
  it('when a PATCH or a batch sets fields to their values, then 204 with no event, no feed entry and the same list ETag', async () => {
    const { t, ids } = await company(4);
    expect((await patchNotes(t, ids[1]!, 'kept')).response.status).toBe(204);
    const synced = await page(t, undefined, 50);
    const listed = await t.api.GET('/statements/v1/banking', { params: { query: { limit: 50 } } });
    const etag = listed.response.headers.get('etag')!;
    const updatedBefore = (await eventsOf(t, 'banking_transaction.updated')).length;

    expect((await patchNotes(t, ids[1]!, 'kept')).response.status).toBe(204);
    const batch = await t.api.PATCH('/statements/v1/banking', {
      body: { transactions: ids.map((id) => ({ id, notes: id === ids[1] ? 'kept' : '' })) },
    });
    expect(batch.response.status).toBe(204);

    expect(await eventsOf(t, 'banking_transaction.updated')).toHaveLength(updatedBefore);
    expect(await page(t, synced.nextCursor, 50)).toMatchObject({ added: [], modified: [], removed: [] });
    const again = await fetch(`${server.baseUrl}/statements/v1/banking?limit=50`, {
      headers: { Authorization: `Bearer ${t.token}`, 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
  });

  it("when a batch item's ifMatch is stale, then 412 naming it and nothing is written; fresh tags, then 204", async () => {
    const { t, ids } = await company(3);
    const read = async (id: number) =>
      (
        await t.api.GET('/statements/v1/banking/{transactionId}', { params: { path: { transactionId: id } } })
      ).response.headers.get('etag')!;
    const [tagA, tagB] = [await read(ids[0]!), await read(ids[1]!)];
    expect((await patchNotes(t, ids[1]!, 'changed by a person')).response.status).toBe(204);

    const stale = await t.api.PATCH('/statements/v1/banking', {
      body: {
        transactions: [
          { id: ids[0]!, ifMatch: tagA, notes: 'from the ERP' },
          { id: ids[1]!, ifMatch: tagB, notes: 'from the ERP' },
        ],
      },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error).toMatchObject({ reason: 'precondition_failed', param: 'transactions.1.ifMatch' });
    const a = await t.api.GET('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: ids[0]! } },
    });
    expect(a.data!.notes).toBe('');

    const fresh = await t.api.PATCH('/statements/v1/banking', {
      body: {
        transactions: [
          { id: ids[0]!, ifMatch: tagA, notes: 'from the ERP' },
          { id: ids[1]!, ifMatch: await read(ids[1]!), notes: 'from the ERP' },
        ],
      },
    });
    expect(fresh.response.status).toBe(204);
  });

  it('when a batch carries an If-Match header, then 400 naming it and nothing is written', async () => {
    const { t, ids } = await company(2);
    const res = await fetch(`${server.baseUrl}/statements/v1/banking`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${t.token}`, 'Content-Type': 'application/json', 'If-Match': '"stale"' },
      body: JSON.stringify({ transactions: [{ id: ids[0], notes: 'overwrite' }] }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ param: 'If-Match' });
    const a = await t.api.GET('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: ids[0]! } },
    });
    expect(a.data!.notes).toBe('');
  });
});

describe('announcements', () => {
  it('when a cost center the rows show is renamed, then statement.updates_available names the banking statement', async () => {
    const t = await server.newCompany();
    const account = await createAccount(server.db, t.companyId);
    const costCenter = await createCostCenter(server.db, t.companyId);
    await createBankingTransactions(server.db, t.companyId, account, [{ cost_center_id: costCenter.id }]);
    const renamed = await t.api.PATCH('/cost-centers/v1/cost-centers/{id}', {
      params: { path: { id: costCenter.id } },
      body: { name: 'Comercial Norte' },
    });
    expect(renamed.response.status).toBe(200);
    const events = await eventsOf(t, 'statement.updates_available');
    expect(events.map((e) => e.data.object)).toEqual([{ statement: 'banking' }]);
  });
});

describe('cursors bound to the store history', () => {
  it('when the store starts a new history (a restore) and moves past a live cursor, then that cursor gets 410', async () => {
    const { t, ids } = await company(3);
    const synced = await page(t, undefined, 50);
    await beginNewHistory(server.db, server.clock.now());
    for (const [i, id] of ids.entries())
      expect((await patchNotes(t, id, `after the restore ${i}`)).response.status).toBe(204);
    const { error, response } = await t.api.GET(BANKING_SYNC, { params: { query: { cursor: synced.nextCursor } } });
    expect(response.status).toBe(410);
    expect(error).toMatchObject({ reason: 'sync_restart_required', param: 'cursor' });
  });

  it.skipIf(onPostgres)(
    'when finance backup is served in the live store’s place, then a live cursor gets 410 however far it moved',
    async () => {
      const location = await freshDatabase(dir, 'live.sqlite');
      const live = await startTestServer({ dbPath: location });
      try {
        const t = await live.newCompany();
        const account = await createAccount(live.db, t.companyId);
        const ids = await createBankingTransactions(live.db, t.companyId, account, [{}, {}, {}]);
        const out = join(dir, 'backup.sqlite');
        // Run without blocking this process's event loop: the live server under test shares it.
        const backup = await promisify(execFile)('node', [
          'bin/finance.js',
          'backup',
          '--db',
          location,
          '--out',
          out,
          '--json',
        ]);
        expect(JSON.parse(backup.stdout)).toMatchObject({ integrity: 'ok', history: expect.any(String) });
        for (const id of ids)
          await live.apiWithToken(t.token).PATCH('/statements/v1/banking/{transactionId}', {
            params: { path: { transactionId: id } },
            body: { notes: 'live only' },
          });
        const cursor = (await page(t, undefined, 50)).nextCursor;

        const restored = await startTestServer({ dbPath: out, config: { secrets: live.config.secrets } });
        try {
          const api = restored.apiWithToken(t.token);
          for (let i = 0; i < 5; i += 1)
            await api.PATCH('/statements/v1/banking/{transactionId}', {
              params: { path: { transactionId: ids[i % 3]! } },
              body: { notes: `restored ${i}` },
            });
          const { response } = await api.GET(BANKING_SYNC, { params: { query: { cursor } } });
          expect(response.status).toBe(410);
        } finally {
          await restored.close();
        }
      } finally {
        await live.close();
      }
    },
  );
});
