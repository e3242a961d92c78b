// What an ingest run writes before its closing transaction, so that transaction holds the store for
// the rows' move alone: the lines' keys, held by the run until it is done, and (SQLite) the rows'
// search documents, under the keys the rows will have. Neither shows before the run does: a search
// finds no staged row, a line being loaded is not ingested yet. A run undone leaves neither behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { bankingRow, createAccount, creditCardRow } from './support/factories/statements.js';
import { publishIngest } from '../server/areas/statements/store/ingest-runs.js';
import { LINES_HELD_MS, LinesHeldError } from '../server/areas/statements/store/ingest-lines.js';
import { IngestRejected, ingestFile } from '../server/areas/statements/ingest/run.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'ingest-ahead-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** How many rows of each statement a search for `word` lists. */
async function found(acme: TestCompany, word: string) {
  const banking = await acme.api.GET('/statements/v1/banking', { params: { query: { q: word, limit: 50 } } });
  const cards = await acme.api.GET('/statements/v1/credit-card', { params: { query: { q: word, limit: 50 } } });
  expect(banking.response.status).toBe(200);
  expect(cards.response.status).toBe(200);
  return { banking: banking.data!.transactions.length, cards: cards.data!.transactions.length };
}

/** A banking line of a file, recognised by its externalId. */
const line = (accountId: number, externalId: string) =>
  JSON.stringify({
    statement: 'banking',
    externalId,
    transaction: {
      transactionType: { id: 8, description: 'Compra nacional', icon: 'cart', subType: 'DEBIT' },
      status: 2,
      accountId,
      finalCardNumber: '4021',
      bearerName: 'MARIANA COSTA',
      transactionDate: '2026-11-18T14:32:05-03:00',
      brlAmount: 54.33,
      usdAmount: null,
      usdExchangeRate: null,
      usdExchangeRateDate: null,
      totalTransactionAmount: 54.33,
      iofAmount: 0,
      feeServiceAmount: 0,
      mccCode: 5411,
      mccGroup: 1,
      mccDescription: 'Supermercados',
      idPurchaseEvent: 7,
      sourceDestinationName: 'MERCADO',
      placeEstablishment: 'SAO PAULO - BR',
      description: `MERCADO ${externalId}`,
      notes: '',
      conciliation: { description: 'Not reconciled', conciled: false },
      category: { id: 'FOOD', description: 'Alimentação' },
      costCenter: null,
      user: null,
      requesterUser: null,
      customCategory: null,
    },
  });

describe('what an ingest writes ahead of its closing transaction', () => {
  it('when rows are staged, then a search finds none of them until the closing transaction, and each of them by its own words after', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId, { openingMinor: 0 });
    const banking = Array.from({ length: 1_500 }, (_, i) =>
      bankingRow(acme.companyId, account, { description: `QUOKKA${1000 + i}` }),
    );
    const cards = Array.from({ length: 1_200 }, (_, i) =>
      creditCardRow(acme.companyId, { description: `WOMBAT${1000 + i}` }),
    );
    const during: Array<Awaited<ReturnType<typeof found>>> = [];
    await publishIngest(server.db, acme.companyId, banking, cards, server.clock.now(), async () => {
      during.push(await found(acme, 'quokka1000'), await found(acme, 'wombat1000'));
    });
    expect(during.length).toBeGreaterThan(0);
    for (const seen of during) expect(seen).toEqual({ banking: 0, cards: 0 });
    for (const i of [1000, 1749, 2499]) expect(await found(acme, `quokka${i}`)).toEqual({ banking: 1, cards: 0 });
    for (const i of [1000, 1599, 2199]) expect(await found(acme, `wombat${i}`)).toEqual({ banking: 0, cards: 1 });
  });

  it('when a run fails after staging, then the next run’s rows are found by their own words and none by the failed run’s', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId, { openingMinor: 0 });
    const card = creditCardRow(acme.companyId, { description: 'OCELOT100' });
    const failing = [
      card,
      ...Array.from({ length: 30 }, (_, i) => creditCardRow(acme.companyId, { description: `OCELOT${101 + i}` })),
      { ...card },
    ];
    const failingBanking = Array.from({ length: 30 }, (_, i) =>
      bankingRow(acme.companyId, account, { description: `OCELOT${101 + i}` }),
    );
    // The same credit-card id twice: every chunk stages, the move into the statement tables fails.
    const err = await publishIngest(server.db, acme.companyId, failingBanking, failing, server.clock.now()).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);

    const banking = Array.from({ length: 30 }, (_, i) =>
      bankingRow(acme.companyId, account, { description: `MARGAY${101 + i}` }),
    );
    const cards = Array.from({ length: 30 }, (_, i) =>
      creditCardRow(acme.companyId, { description: `MARGAY${101 + i}` }),
    );
    await publishIngest(server.db, acme.companyId, banking, cards, server.clock.now());
    for (const i of [101, 115, 130]) {
      expect(await found(acme, `margay${i}`)).toEqual({ banking: 1, cards: 1 });
      expect(await found(acme, `ocelot${i}`)).toEqual({ banking: 0, cards: 0 });
    }
  });

  it('when another ingest loads the same lines, then this one is refused naming them until that one stops; then it takes them over and the other fails at its closing', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId, { openingMinor: 0 });
    const path = join(dir, 'held.jsonl');
    writeFileSync(path, `${['held-1', 'held-2'].map((id) => line(account, id)).join('\n')}\n`);
    const ingest = () => ingestFile(server.db, server.index, acme.companyId, path, server.clock.now());
    const outcomes: unknown[] = [];

    // The first run holds the lines' keys from its first staging chunk; it is silent while the second tries.
    const first = publishIngest(
      server.db,
      acme.companyId,
      [bankingRow(acme.companyId, account), bankingRow(acme.companyId, account)],
      [],
      server.clock.now(),
      async () => {
        outcomes.push(await ingest().catch((e: unknown) => e));
        const silent = new Date(Date.now() - LINES_HELD_MS - 1_000).toISOString();
        await server.db
          .updateTable('ingest_runs')
          .set({ heartbeat_at: silent })
          .where('company_id', '=', acme.companyId)
          .where('status', '=', 'LOADING')
          .execute();
        outcomes.push(await ingest());
      },
      undefined,
      { lines: ['held-1', 'held-2'].map((id) => ({ line_key: `ext:banking:${id}`, statement: 'banking' as const })) },
    );
    expect(await first.catch((e: unknown) => e)).toBeInstanceOf(LinesHeldError);

    const [refused, taken] = outcomes;
    expect(refused).toBeInstanceOf(IngestRejected);
    expect((refused as IngestRejected).problems).toEqual([
      { line: 1, message: expect.stringContaining('another ingest is loading this line') },
      { line: 2, message: expect.stringContaining('another ingest is loading this line') },
    ]);
    expect(taken).toMatchObject({ banking: 2, alreadyIngested: 0 });
    const listed = await acme.api.GET('/statements/v1/banking', { params: { query: { limit: 50 } } });
    expect(listed.data?.transactions.map((t) => t.description).sort()).toEqual(['MERCADO held-1', 'MERCADO held-2']);
    // The refused run and the one that stopped are undone; the one that took the lines over is done.
    const runs = await server.db
      .selectFrom('ingest_runs')
      .select('status')
      .where('company_id', '=', acme.companyId)
      .execute();
    expect(runs).toEqual([{ status: 'DONE' }]);
    expect(await ingest()).toMatchObject({ banking: 0, alreadyIngested: 2 });
  });
});
