// `finance vcn authorize|block|unblock|cancel` on a database file, through the command's own parser.
import { Command } from 'commander';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCompany } from '../server/areas/auth/store.js';
import { createSimulatedIssuer } from '../server/sandbox/issuer.js';
import { planIssue } from '../server/areas/vcn/rules.js';
import { issueVcn } from '../server/areas/vcn/store/issue.js';
import { listTransactions } from '../server/areas/vcn/store/transactions.js';
import { register } from '../server/cli/commands/vcn.js';
import { openStore } from '../server/db/store.js';
import { systemClock } from '../server/lib/clock.js';
import { localDate } from '../server/lib/time.js';
import { customRequest, fund } from './support/factories/vcn.js';
import { freshDatabase } from './support/database.js';

const dir = mkdtempSync(join(tmpdir(), 'finance-vcn-cli-'));
const dbPath = await freshDatabase(dir);
let companyId: string;
let vcnId: string;

/** Runs `finance vcn …` in this process and returns its stdout. */
async function finance(...args: string[]): Promise<string> {
  const program = new Command('finance').exitOverride();
  register(program);
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync(['vcn', ...args, '--db', dbPath], { from: 'user' });
  } finally {
    spy.mockRestore();
  }
  return chunks.join('');
}
const json = async (...args: string[]) => JSON.parse(await finance(...args, '--json')) as Record<string, unknown>;

beforeAll(async () => {
  const db = (await openStore(dbPath)).db;
  try {
    companyId = await createCompany(db, systemClock, { name: 'Viagens Ltda' });
    await fund(db, companyId);
    const now = systemClock.now();
    const today = localDate(now, 'America/Sao_Paulo');
    const plan = planIssue(customRequest({ limit: { value: 50, currency: 'BRL' }, maxPurchaseQuantity: 3 }), today);
    const issued = await issueVcn(db, createSimulatedIssuer(), {
      companyId,
      clientId: 'cli_test',
      plan,
      today,
      now,
      panKey: randomBytes(32),
    });
    vcnId = issued.row.id;
  } finally {
    await db.destroy();
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('finance vcn', () => {
  it('when a purchase fits, then authorize prints an approved transaction with an authorization code', async () => {
    expect(
      await json('authorize', '--vcn', vcnId, '--amount', '12.34', '--merchant', 'PADARIA REAL', '--mcc', '5812'),
    ).toMatchObject({
      vcnId,
      status: 'APPROVED',
      amount: 12.34,
      currency: 'BRL',
      authorizationCode: expect.stringMatching(/^[0-9A-Z]{6}$/),
    });
  });

  it('when a purchase passes the ceiling, then it is recorded as DECLINED with the reason', async () => {
    expect(await json('authorize', '--vcn', vcnId, '--amount', '37.67')).toMatchObject({
      status: 'DECLINED',
      declineReason: 'LIMIT_EXCEEDED',
    });
  });

  it('when the amount has 3 decimals, then the command fails and records nothing', async () => {
    await expect(finance('authorize', '--vcn', vcnId, '--amount', '1.234')).rejects.toThrow(/at most 2 decimals/);
  });

  it('when the card is blocked, then purchases are declined; unblocked, approved; cancelled, declined for good', async () => {
    expect(await json('block', '--vcn', vcnId)).toEqual({ vcnId, status: 'BLOCKED' });
    expect(await json('authorize', '--vcn', vcnId, '--amount', '1.00')).toMatchObject({
      status: 'DECLINED',
      declineReason: 'CARD_BLOCKED',
    });
    expect(await json('unblock', '--vcn', vcnId)).toEqual({ vcnId, status: 'ACTIVE' });
    expect(await json('authorize', '--vcn', vcnId, '--amount', '1.00')).toMatchObject({ status: 'APPROVED' });
    expect(await json('cancel', '--vcn', vcnId)).toEqual({ vcnId, status: 'CANCELLED' });
    expect(await json('authorize', '--vcn', vcnId, '--amount', '1.00')).toMatchObject({
      status: 'DECLINED',
      declineReason: 'CARD_CANCELLED',
    });
    await expect(finance('block', '--vcn', vcnId)).rejects.toThrow(/CANCELLED/);
  });

  it('when the card does not exist, then the command fails naming it', async () => {
    await expect(finance('authorize', '--vcn', '01JD3R7M5Q2W8E4T6Y1V9K0PZX', '--amount', '1')).rejects.toThrow(
      /01JD3R7M5Q2W8E4T6Y1V9K0PZX/,
    );
  });

  it('when run without --json, then it prints one line per field', async () => {
    expect(await finance('authorize', '--vcn', vcnId, '--amount', '2')).toMatch(
      /^transactionId: .+\nvcnId: .+\nstatus: DECLINED\n/,
    );
  });

  it('when the purchases are listed from the store, then every attempt above is there, newest first', async () => {
    const db = (await openStore(dbPath)).db;
    try {
      const rows = await listTransactions(db, { companyId, vcnId, limit: 100 });
      expect(rows.map((r) => r.status)).toEqual([
        'DECLINED',
        'DECLINED',
        'APPROVED',
        'DECLINED',
        'DECLINED',
        'APPROVED',
      ]);
    } finally {
      await db.destroy();
    }
  });
});
