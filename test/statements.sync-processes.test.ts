// The change feed never skips or repeats a committed change, with writers in two server processes
// committing concurrently (on PostgreSQL, in an order other than the one they began in) while a
// reader follows the feed: each of 300 changes — 240 PATCHes, each of its own transaction, and 60
// transactions arriving by the sandbox helper — appears exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../server/db/database.js';
import { freshDatabase } from './support/database.js';
import { startProcesses, sharedCompany, type ServerProcess, type SharedCompany } from './support/processes.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';

const PATCHES = 240;
const ARRIVALS = 60;
/** Requests in flight at once, over both processes. */
const WRITERS = 8;

let dir: string;
let db: Db;
let servers: ServerProcess[];
let acme: SharedCompany;
let account: number;
let ids: number[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sync-processes-'));
  ({ db, servers } = await startProcesses(await freshDatabase(dir), [1, 1]));
  acme = await sharedCompany(db, servers);
  account = await createAccount(db, acme.companyId);
  ids = await createBankingTransactions(
    db,
    acme.companyId,
    account,
    Array.from({ length: PATCHES }, () => ({})),
  );
}, 120_000);
afterAll(async () => {
  await Promise.all((servers ?? []).map((s) => s.stop()));
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const arrival = (n: number) => ({
  transactionType: { id: 2, description: 'PIX enviado', icon: 'pix', subType: 'DEBIT' as const },
  status: 2 as const,
  accountId: account,
  finalCardNumber: null,
  bearerName: null,
  transactionDate: '2026-11-17T14:02:11-03:00',
  brlAmount: 10 + n,
  usdAmount: null,
  usdExchangeRate: null,
  usdExchangeRateDate: null,
  totalTransactionAmount: 10 + n,
  iofAmount: 0,
  feeServiceAmount: 0,
  mccCode: null,
  mccGroup: null,
  mccDescription: null,
  idPurchaseEvent: null,
  sourceDestinationName: 'GRAFICA PAULISTA LTDA',
  placeEstablishment: null,
  description: `arrival ${n}`,
  notes: '',
  conciliation: { description: 'Not reconciled' as const, conciled: false as const },
  category: { id: 'SERVICES', description: 'Serviços' },
  costCenter: null,
  user: null,
  requesterUser: null,
  customCategory: null,
});

/** One change of the 300: a PATCH of a transaction of its own, or an arrival. Retries a 503 as its Retry-After says. */
async function change(n: number): Promise<void> {
  const api = acme.apis[n % 2]!;
  for (;;) {
    const { response } =
      n < PATCHES
        ? await api.PATCH('/statements/v1/banking/{transactionId}', {
            params: { path: { transactionId: ids[n]! } },
            body: { notes: `change ${n}` },
          })
        : await api.POST('/sandbox/v1/banking-transactions', { body: arrival(n) });
    if (response.status !== 503) {
      expect([201, 204]).toContain(response.status);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('listBankingTransactionChanges across processes', () => {
  it('when two processes write 300 changes concurrently while a reader follows the feed, then every change appears exactly once', async () => {
    const reader = acme.apis[0]!;
    const page = async (cursor: string | undefined) => {
      const { data, response } = await reader.GET('/statements/v1/banking/sync', {
        params: { query: { cursor, limit: 25 } },
      });
      expect(response.status).toBe(200);
      return data!;
    };
    // The initial sync, before the writers start.
    let cursor: string | undefined;
    for (let more = true; more; ) {
      const p = await page(cursor);
      cursor = p.nextCursor;
      more = p.hasMore;
    }

    const seen: string[] = [];
    const record = (p: Awaited<ReturnType<typeof page>>) => {
      for (const t of p.modified) seen.push(`modified ${t.notes}`);
      for (const t of p.added) seen.push(`added ${t.description}`);
    };
    let writing = true;
    const follower = (async () => {
      // Follows while the writers run, then once more to the end.
      for (let last = false; ; ) {
        const p = await page(cursor);
        record(p);
        cursor = p.nextCursor;
        if (last && !p.hasMore) return;
        if (!writing) last = true;
      }
    })();
    let next = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (next < PATCHES + ARRIVALS) await change(next++);
      }),
    );
    writing = false;
    await follower;

    const expected = [
      ...Array.from({ length: PATCHES }, (_, n) => `modified change ${n}`),
      ...Array.from({ length: ARRIVALS }, (_, i) => `added arrival ${PATCHES + i}`),
    ];
    expect([...seen].sort()).toEqual(expected.sort());
  }, 180_000);
});
