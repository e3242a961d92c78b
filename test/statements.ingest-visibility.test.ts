// A `finance ingest` is invisible until it completes: an 8,000-line file with three marked lines
// (first, middle, last) is ingested by the real command in its own process while the API is polled
// for the marked lines and the account's balance. Every poll sees none of the run or all of it:
// 0 or 3 marked rows, the balance before or after, never in between.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from './support/database.js';
import { startTestServer, type TestServer } from './support/server.js';
import { createAccount } from './support/factories/statements.js';

const run = promisify(execFile);
const LINES = 8_000;
const MARKED = 9876.54;

let dir: string;
let location: string;
let server: TestServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ingest-visibility-'));
  location = await freshDatabase(dir);
  server = await startTestServer({ dbPath: location });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const line = (accountId: number, i: number, marked: boolean) =>
  JSON.stringify({
    statement: 'banking',
    transaction: {
      transactionType: { id: 8, description: 'Compra nacional', icon: 'cart', subType: 'CREDIT' },
      status: 2,
      accountId,
      finalCardNumber: '4021',
      bearerName: 'MARIANA COSTA',
      transactionDate: new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString(),
      brlAmount: marked ? MARKED : (i % 5000) + 0.5,
      usdAmount: null,
      usdExchangeRate: null,
      usdExchangeRateDate: null,
      totalTransactionAmount: marked ? MARKED : (i % 5000) + 0.5,
      iofAmount: 0,
      feeServiceAmount: 0,
      mccCode: 5411,
      mccGroup: 1,
      mccDescription: 'Supermercados',
      idPurchaseEvent: i,
      sourceDestinationName: 'MERCADO',
      placeEstablishment: 'SAO PAULO - BR',
      description: marked ? `MARCADA ${i}` : `MERCADO ${i}`,
      notes: '',
      conciliation: { description: 'Not reconciled', conciled: false },
      category: { id: 'FOOD', description: 'Alimentação' },
      costCenter: null,
      user: null,
      requesterUser: null,
      customCategory: null,
    },
  });

describe('finance ingest while the API is read', () => {
  it('when an 8,000-line file with marked first, middle and last lines is ingested, then every poll sees 0 or 3 marked rows and the balance before or after', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId, { openingMinor: 0 });
    const marked = new Set([0, LINES / 2, LINES - 1]);
    const file = join(dir, 'marked.jsonl');
    writeFileSync(file, `${Array.from({ length: LINES }, (_, i) => line(account, i, marked.has(i))).join('\n')}\n`);

    let done = false;
    const ingest = run(
      'node',
      ['bin/finance.js', 'ingest', '--company', acme.companyId, '--file', file, '--db', location, '--json'],
      { env: { ...process.env, LOG_LEVEL: 'silent' }, maxBuffer: 1 << 24 },
    ).finally(() => {
      done = true;
    });

    const polls: Array<{ marked: number; balance: number; staging: number }> = [];
    while (!done) {
      // Rows the run has staged so far (read first: a poll after it sees at least this far into the run).
      const staging = Number(
        (
          await server.db
            .selectFrom('ingest_banking_rows')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('company_id', '=', acme.companyId)
            .executeTakeFirstOrThrow()
        ).n,
      );
      const list = await acme.api.GET('/statements/v1/banking', { params: { query: { amountEq: MARKED, limit: 50 } } });
      const balance = await acme.api.GET('/accounts/v1/balance', { params: { query: { accountId: account } } });
      expect(list.response.status).toBe(200);
      expect(balance.response.status).toBe(200);
      polls.push({
        marked: list.data!.transactions.length,
        balance: balance.data!.items[0]!.balance,
        staging,
      });
    }
    const { stdout } = await ingest;
    expect(JSON.parse(stdout)).toMatchObject({ banking: LINES, creditCard: 0 });

    const total = Array.from({ length: LINES }, (_, i) =>
      marked.has(i) ? MARKED * 100 : (i % 5000) * 100 + 50,
    ).reduce((a, b) => a + b, 0);
    const partial = polls.filter((p) => p.marked !== 0 && p.marked !== 3);
    expect(partial).toEqual([]);
    for (const p of polls) expect([0, total / 100]).toContain(p.balance);
    // The balance is read after the list: once the rows are listed, the balance has them too.
    for (const p of polls.filter((q) => q.marked === 3)) expect(p.balance).toBe(total / 100);
    // The polls ran while the run was staged, not only before or after it.
    expect(polls.filter((p) => p.staging > 0 && p.staging < LINES).length).toBeGreaterThan(0);
    const after = await acme.api.GET('/statements/v1/banking', { params: { query: { amountEq: MARKED } } });
    expect(after.data?.transactions.map((t) => t.description).sort()).toEqual([
      'MARCADA 0',
      'MARCADA 4000',
      'MARCADA 7999',
    ]);
  }, 240_000);
});
