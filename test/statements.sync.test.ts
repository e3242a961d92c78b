// The statements' change feeds (`…/banking/sync`, `…/credit-card/sync`): the initial sync, catching
// up after each kind of write, cursors bound to the company, and the `*.created` events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { components } from '../generated/openapi.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createCostCenter } from './support/factories/directory.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';
import { ingestFile } from '../server/areas/statements/ingest/run.js';

type Changes = components['schemas']['BankingTransactionChanges'];
type CardChanges = components['schemas']['CreditCardTransactionChanges'];

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'sync-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const BANKING_SYNC = '/statements/v1/banking/sync';
const CARD_SYNC = '/statements/v1/credit-card/sync';

async function bankingPage(t: TestCompany, cursor?: string, limit = 7): Promise<Changes> {
  const { data, response } = await t.api.GET(BANKING_SYNC, { params: { query: { cursor, limit } } });
  expect(response.status).toBe(200);
  return data!;
}

/** Follows the banking feed from `cursor` until `hasMore` is false: every answer, and the last cursor. */
async function followBanking(t: TestCompany, cursor?: string) {
  const pages: Changes[] = [];
  for (;;) {
    const page = await bankingPage(t, cursor);
    pages.push(page);
    cursor = page.nextCursor;
    if (!page.hasMore) break;
  }
  return {
    added: pages.flatMap((p) => p.added),
    modified: pages.flatMap((p) => p.modified),
    removed: pages.flatMap((p) => p.removed),
    cursor: cursor!,
  };
}

async function followCards(t: TestCompany, cursor?: string) {
  const added: CardChanges['added'] = [];
  const modified: CardChanges['modified'] = [];
  for (;;) {
    const { data, response } = await t.api.GET(CARD_SYNC, { params: { query: { cursor, limit: 3 } } });
    expect(response.status).toBe(200);
    added.push(...data!.added);
    modified.push(...data!.modified);
    cursor = data!.nextCursor;
    if (!data!.hasMore) return { added, modified, cursor };
  }
}

const sandboxBanking = (accountId: number, description: string) => ({
  transactionType: { id: 2, description: 'PIX enviado', icon: 'pix', subType: 'DEBIT' as const },
  status: 2 as const,
  accountId,
  finalCardNumber: null,
  bearerName: null,
  transactionDate: '2026-11-17T14:02:11-03:00',
  brlAmount: 1890,
  usdAmount: null,
  usdExchangeRate: null,
  usdExchangeRateDate: null,
  totalTransactionAmount: 1890,
  iofAmount: 0,
  feeServiceAmount: 0,
  mccCode: null,
  mccGroup: null,
  mccDescription: null,
  idPurchaseEvent: null,
  sourceDestinationName: 'GRAFICA PAULISTA LTDA',
  placeEstablishment: null,
  description,
  notes: '',
  conciliation: { description: 'Not reconciled' as const, conciled: false as const },
  category: { id: 'SERVICES', description: 'Serviços' },
  costCenter: null,
  user: null,
  requesterUser: null,
  customCategory: null,
});

const ingestLine = (accountId: number, description: string) => ({
  ...sandboxBanking(accountId, description),
  transactionType: { id: 8, description: 'Compra internacional', icon: 'globe', subType: 'DEBIT' },
  sourceDestinationName: 'LATAM AIRLINES',
});

async function ingest(companyId: string, name: string, lines: unknown[]) {
  const path = join(dir, name);
  writeFileSync(path, `${lines.map((l) => JSON.stringify({ statement: 'banking', transaction: l })).join('\n')}\n`);
  return ingestFile(server.db, server.index, companyId, path, server.clock.now());
}

describe('listBankingTransactionChanges', () => {
  it('when a company syncs from scratch, then every transaction comes once as added, in pages, and then nothing', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    const ids = await createBankingTransactions(
      server.db,
      acme.companyId,
      account,
      Array.from({ length: 23 }, () => ({})),
    );
    const sync = await followBanking(acme);
    expect(sync.added.map((t) => t.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(sync.modified).toEqual([]);
    const again = await bankingPage(acme, sync.cursor);
    expect(again).toMatchObject({ added: [], modified: [], removed: [], hasMore: false });
  });

  it('when a transaction is patched, one arrives by the sandbox helper and one by an ingest, then the feed returns exactly those once, in the list shape', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    const [first, second] = await createBankingTransactions(
      server.db,
      acme.companyId,
      account,
      Array.from({ length: 12 }, () => ({})),
    );
    const start = await followBanking(acme);

    const costCenter = await createCostCenter(server.db, acme.companyId);
    const patched = await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: first! } },
      body: { notes: 'Almoço com cliente', costCenterId: costCenter.id },
    });
    expect(patched.response.status).toBe(204);
    const helper = await acme.api.POST('/sandbox/v1/banking-transactions', {
      body: sandboxBanking(account, 'PIX do helper'),
    });
    expect(helper.response.status).toBe(201);
    await ingest(acme.companyId, 'one.jsonl', [ingestLine(account, 'Linha do arquivo')]);

    const caught = await followBanking(acme, start.cursor);
    expect(caught.modified.map((t) => t.id)).toEqual([first]);
    expect(caught.modified[0]).toMatchObject({ notes: 'Almoço com cliente', costCenter: { id: costCenter.id } });
    expect(caught.added.map((t) => t.description).sort()).toEqual(['Linha do arquivo', 'PIX do helper']);
    expect(caught.removed).toEqual([]);
    // Exactly as the list shows them.
    const list = await acme.api.GET('/statements/v1/banking', { params: { query: { limit: 50 } } });
    for (const t of [...caught.added, ...caught.modified])
      expect(list.data!.transactions.find((l) => l.id === t.id)).toEqual(t);
    expect(caught.added.map((t) => t.id)).not.toContain(second);
    const idle = await bankingPage(acme, caught.cursor);
    expect(idle).toMatchObject({ added: [], modified: [], removed: [], hasMore: false });
  });

  it('when a cost center the transactions show is renamed, then they come again as modified with the new name', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    const costCenter = await createCostCenter(server.db, acme.companyId);
    const [id] = await createBankingTransactions(server.db, acme.companyId, account, [
      { cost_center_id: costCenter.id },
      {},
    ]);
    const start = await followBanking(acme);
    const renamed = await acme.api.PATCH('/cost-centers/v1/cost-centers/{id}', {
      params: { path: { id: costCenter.id } },
      body: { name: 'Comercial Sul' },
    });
    expect(renamed.response.status).toBe(200);
    const caught = await followBanking(acme, start.cursor);
    expect(caught.modified.map((t) => t.id)).toEqual([id]);
    expect(caught.modified[0]!.costCenter).toEqual({ id: costCenter.id, description: 'Comercial Sul' });
  });

  it("when another company's cursor, an altered one, one not of ours or one of other filters is sent, then 410 sync_restart_required", async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const { nextCursor } = await bankingPage(acme);
    for (const [t, cursor, accountId] of [
      [globex, nextCursor, undefined],
      [acme, `${nextCursor.slice(0, -2)}xx`, undefined],
      [acme, 'not-a-cursor', undefined],
      [acme, nextCursor, 7],
    ] as const) {
      const { error, response } = await t.api.GET(BANKING_SYNC, { params: { query: { cursor, accountId } } });
      expect(response.status).toBe(410);
      expect(error).toMatchObject({ code: 410, reason: 'sync_restart_required', param: 'cursor' });
    }
  });

  it('when the cursor is ahead of what the company has (a restored database), then 410 sync_restart_required', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    await createBankingTransactions(server.db, acme.companyId, account, [{}]);
    const { nextCursor } = await bankingPage(acme);
    // As if the company's data were restored from a backup older than the cursor.
    await server.db
      .updateTable('banking_transactions')
      .set({ change_seq: 0 })
      .where('company_id', '=', acme.companyId)
      .execute();
    const { error, response } = await acme.api.GET(BANKING_SYNC, { params: { query: { cursor: nextCursor } } });
    expect(response.status).toBe(410);
    expect(error).toMatchObject({ code: 410, reason: 'sync_restart_required' });
  });

  it('when a sandbox helper or an ingest adds transactions, then each records banking_transaction.created carrying it as the list shows it', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    const helper = await acme.api.POST('/sandbox/v1/banking-transactions', {
      body: sandboxBanking(account, 'Do helper'),
    });
    await ingest(acme.companyId, 'two.jsonl', [ingestLine(account, 'A'), ingestLine(account, 'B')]);
    const { data } = await acme.api.GET('/events/v1/events', { params: { query: { limit: 50 } } });
    const created = data!.items.filter((e) => e.type === 'banking_transaction.created');
    expect(created).toHaveLength(3);
    const list = await acme.api.GET('/statements/v1/banking', { params: { query: { limit: 50 } } });
    const shown = new Map(list.data!.transactions.map((t) => [t.id, t]));
    for (const e of created) expect(e.data.object).toEqual(shown.get((e.data.object as { id: number }).id));
    expect(created.map((e) => (e.data.object as { id: number }).id)).toContain((helper.data as { id: number }).id);
    expect(data!.items.filter((e) => e.type === 'statement.ingested')).toHaveLength(2);
  });
});

describe('listCreditCardTransactionChanges', () => {
  it('when a company syncs and a record is patched, then every record comes once, then the patched one as modified', async () => {
    const acme = await server.newCompany();
    const ids = await createCreditCardTransactions(
      server.db,
      acme.companyId,
      Array.from({ length: 8 }, () => ({})),
    );
    const sync = await followCards(acme);
    expect(sync.added.map((t) => t.id).sort()).toEqual([...ids].sort());
    const patched = await acme.api.PATCH('/statements/v1/credit-card/{transactionId}', {
      params: { path: { transactionId: ids[3]! } },
      body: { notes: 'Reunião' },
    });
    expect(patched.response.status).toBe(204);
    const caught = await followCards(acme, sync.cursor);
    expect(caught.added).toEqual([]);
    expect(caught.modified.map((t) => [t.id, t.notes])).toEqual([[ids[3], 'Reunião']]);
  });
});
