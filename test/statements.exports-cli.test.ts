// `finance export` on the server's database, run in this process (the command tree of bin/finance.js):
// it writes the same file the HTTP export streams.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSync } from 'ofx-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { freshDatabase } from './support/database.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';
import { financeOf, text } from './support/exports.js';
import { finance as runFinance } from './support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'finance-export-'));
let dbPath: string;
let server: TestServer;
let acme: TestCompany;

/** `finance …` in this process (the command tree of bin/finance.js): its stdout, or a rejection with code and stderr. */
const finance = async (...args: string[]) => ({
  stdout: await runFinance([...args, '--db', dbPath], { LOG_LEVEL: 'silent' }),
});

beforeAll(async () => {
  dbPath = await freshDatabase(dir);
  server = await startTestServer({ dbPath });
  acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  await createBankingTransactions(
    server.db,
    acme.companyId,
    account,
    Array.from({ length: 700 }, (_, i) => ({ status: ((i % 3) + 1) as 1 | 2 | 3, notes: i % 9 ? '' : '=1+1' })),
  );
  await createCreditCardTransactions(
    server.db,
    acme.companyId,
    Array.from({ length: 40 }, (_, i) => ({
      status: ((i % 3) + 1) as 1 | 2 | 3,
      ...(i % 4 === 0 ? { currency: 'USD', exchange_rate: 5.4 } : {}),
    })),
  );
}, 120_000);
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('finance export', () => {
  it('when a banking CSV is exported with filters, then the file is byte for byte what the API streams', async () => {
    const out = join(dir, 'banking.csv');
    const { stdout } = await finance(
      'export',
      'banking',
      '--company',
      acme.companyId,
      '--format',
      'csv',
      '--dialect',
      'excel-br',
      '--status',
      '2,3',
      '--sorting',
      'brlAmount:asc',
      '--out',
      out,
      '--json',
    );
    const api = await financeOf(server, acme).exports.banking({
      format: 'csv',
      dialect: 'excel-br',
      status: [2, 3],
      sorting: 'brlAmount:asc',
    });
    const expected = Buffer.from(await new Response(api).arrayBuffer());
    expect(readFileSync(out).equals(expected)).toBe(true);
    expect(JSON.parse(stdout)).toMatchObject({
      companyId: acme.companyId,
      format: 'csv',
      rows: 700 - Math.ceil(700 / 3),
    });
  });

  it('when a credit-card OFX is exported, then it holds the transactions the API streams', async () => {
    const out = join(dir, 'card.ofx');
    await finance('export', 'credit-card', '--company', acme.companyId, '--format', 'ofx', '--out', out);
    const api = parseSync(await text(await financeOf(server, acme).exports.creditCard({ format: 'ofx' })));
    const file = parseSync(readFileSync(out, 'utf8'));
    const list = (ofx: typeof api) => ofx.OFX.CREDITCARDMSGSRSV1.CCSTMTTRNRS.CCSTMTRS.BANKTRANLIST.STMTTRN;
    expect(list(file)).toHaveLength(40);
    expect(list(file)).toEqual(list(api));
  });

  it('when a credit-card CSV is exported by types and status, then the file is byte for byte what the API streams', async () => {
    const out = join(dir, 'card.csv');
    const args = ['--types', 'PURCHASE', '--status', '3,2', '--out', out, '--json'];
    const { stdout } = await finance('export', 'credit-card', '--company', acme.companyId, '--format', 'csv', ...args);
    const api = await financeOf(server, acme).exports.creditCard({
      format: 'csv',
      types: ['PURCHASE'],
      status: [2, 3],
    });
    const expected = Buffer.from(await new Response(api).arrayBuffer());
    expect(readFileSync(out).equals(expected)).toBe(true);
    // 40 records: every 4th in USD, every 3rd cancelled; PURCHASE and not cancelled leaves 20.
    expect(JSON.parse(stdout)).toMatchObject({ format: 'csv', rows: 20 });
    const refused = await finance(
      'export',
      'credit-card',
      '--company',
      acme.companyId,
      '--format',
      'csv',
      '--types',
      'REFUND',
      '--out',
      out,
    ).catch((e: { code: number; stderr: string }) => e);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toContain('not a type');
  });

  it('when a filter breaks a rule of the list, then the command fails with its message and no export', async () => {
    const failure = await finance(
      'export',
      'banking',
      '--company',
      acme.companyId,
      '--format',
      'csv',
      '--start-date',
      '2026-10-01',
      '--out',
      join(dir, 'bad.csv'),
    ).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain('endDate is required with startDate');
    const unknown = await finance(
      'export',
      'banking',
      '--company',
      'nope',
      '--format',
      'ofx',
      '--out',
      join(dir, 'x.ofx'),
    ).catch((e: { stderr: string }) => e);
    expect((unknown as { stderr: string }).stderr).toContain('no company nope');
  });
});
