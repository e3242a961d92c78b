// The feeds classify a row by what this cursor's reader was sent: on the initial pass every row is
// `added` whatever was edited before or during it; afterwards a row created since is `added`, one
// sent and changed since `modified`; each row at most once per answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/openapi.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';

type Changes = components['schemas']['BankingTransactionChanges'];
type CardChanges = components['schemas']['CreditCardTransactionChanges'];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

async function bankingPage(t: TestCompany, cursor: string | undefined, limit: number): Promise<Changes> {
  const { data, response } = await t.api.GET('/statements/v1/banking/sync', { params: { query: { cursor, limit } } });
  expect(response.status).toBe(200);
  const ids = [...data!.added, ...data!.modified].map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  return data!;
}

async function cardPage(t: TestCompany, cursor: string | undefined, limit: number): Promise<CardChanges> {
  const { data, response } = await t.api.GET('/statements/v1/credit-card/sync', {
    params: { query: { cursor, limit } },
  });
  expect(response.status).toBe(200);
  return data!;
}

const note = (t: TestCompany, id: number, notes: string) =>
  t.api.PATCH('/statements/v1/banking/{transactionId}', { params: { path: { transactionId: id } }, body: { notes } });

const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id).sort((a, b) => a - b);

describe('listBankingTransactionChanges: added is what the reader was not sent', () => {
  it('when rows are edited singly and in a batch before the initial pass, then every row comes once as added and modified is empty', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    const created = await createBankingTransactions(
      server.db,
      acme.companyId,
      account,
      Array.from({ length: 9 }, () => ({})),
    );
    expect((await note(acme, created[0]!, 'Almoço')).response.status).toBe(204);
    const batch = await acme.api.PATCH('/statements/v1/banking', {
      body: {
        transactions: [
          { id: created[4]!, notes: 'Táxi' },
          { id: created[8]!, notes: 'Hotel' },
        ],
      },
    });
    expect(batch.response.status).toBe(204);
    const added: Changes['added'] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await bankingPage(acme, cursor, 2);
      expect(page.modified).toEqual([]);
      expect(page.removed).toEqual([]);
      added.push(...page.added);
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    expect(ids(added)).toEqual([...created].sort((a, b) => a - b));
  });

  it('when rows sent and not yet sent are edited between the pages of the initial pass, then the ledger equals the list and the next poll classifies by what was sent', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId);
    const created = await createBankingTransactions(
      server.db,
      acme.companyId,
      account,
      Array.from({ length: 6 }, () => ({})),
    );
    const ledger = new Map<number, Changes['added'][number]>();
    const first = await bankingPage(acme, undefined, 2);
    for (const t of first.added) ledger.set(t.id, t);
    const sent = first.added[0]!.id;
    const notYet = created.find((id) => !ledger.has(id))!;
    expect((await note(acme, sent, 'Editado depois de enviado')).response.status).toBe(204);
    expect((await note(acme, notYet, 'Editado antes de enviado')).response.status).toBe(204);
    let cursor = first.nextCursor;
    for (let more = first.hasMore; more; ) {
      const page = await bankingPage(acme, cursor, 2);
      expect(page.modified.map((t) => t.id).filter((id) => !ledger.has(id))).toEqual([]);
      for (const t of [...page.added, ...page.modified]) ledger.set(t.id, t);
      cursor = page.nextCursor;
      more = page.hasMore;
    }
    const list = await acme.api.GET('/statements/v1/banking', { params: { query: { limit: 50 } } });
    expect([...ledger.values()].sort((a, b) => a.id - b.id)).toEqual(
      [...list.data!.transactions].sort((a, b) => a.id - b.id),
    );

    // After the pass: a row created and then edited between polls is added; an old row edited is modified.
    const [fresh] = await createBankingTransactions(server.db, acme.companyId, account, [{}]);
    expect((await note(acme, fresh!, 'Novo e editado')).response.status).toBe(204);
    expect((await note(acme, created[5]!, 'Antigo editado')).response.status).toBe(204);
    const poll1 = await bankingPage(acme, cursor, 1);
    const poll2 = await bankingPage(acme, poll1.nextCursor, 1);
    expect(ids([...poll1.added, ...poll2.added])).toEqual([fresh]);
    expect(ids([...poll1.modified, ...poll2.modified])).toEqual([created[5]]);
    expect(poll2.hasMore).toBe(false);
  });
});

describe('listCreditCardTransactionChanges: added is what the reader was not sent', () => {
  it('when a card row is edited before the initial pass, then it comes as added with the others', async () => {
    const acme = await server.newCompany();
    const created = await createCreditCardTransactions(
      server.db,
      acme.companyId,
      Array.from({ length: 4 }, () => ({})),
    );
    const patched = await acme.api.PATCH('/statements/v1/credit-card/{transactionId}', {
      params: { path: { transactionId: created[1]! } },
      body: { notes: 'Reunião' },
    });
    expect(patched.response.status).toBe(204);
    const page1 = await cardPage(acme, undefined, 3);
    const page2 = await cardPage(acme, page1.nextCursor, 3);
    expect([...page1.modified, ...page2.modified]).toEqual([]);
    expect([...page1.added, ...page2.added].map((t) => t.id).sort()).toEqual([...created].sort());
    expect(page2.hasMore).toBe(false);
  });
});
