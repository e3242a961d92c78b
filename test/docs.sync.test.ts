// docs/sync.md runs as written: its TypeScript blocks are extracted into one module, imported, and
// each step is run against a server — the initial sync, catching up after a PATCH and an arrival,
// a webhook as a nudge, conditional polling, and a restart after a cursor the feed cannot serve.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Guide {
  initialSync(ledger: Ledger): Promise<void>;
  catchUp(ledger: Ledger): Promise<void>;
  onWebhook(ledger: Ledger, rawBody: string, headers: Record<string, string>, secret: string): Promise<void>;
  pollFirstPage(etag: string | undefined): Promise<{ changed: boolean; etag?: string }>;
  writeBack(annotations: Array<{ id: number; notes?: string; categoryId?: number }>): Promise<{ refused?: string[] }>;
  annotateIfUnchanged(
    id: number,
    notes: (current: string) => string | Promise<string>,
  ): Promise<'written' | 'conflict'>;
}
interface Ledger {
  transactions: Map<number, { id: number; notes: string; description: string }>;
  cursor?: string;
}

let server: TestServer;
let acme: TestCompany;
let guide: Guide;
let ids: number[];
beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  ids = await createBankingTransactions(
    server.db,
    acme.companyId,
    account,
    Array.from({ length: 130 }, () => ({})),
  );
  Object.assign(process.env, {
    FINANCE_BASE_URL: server.baseUrl,
    FINANCE_CLIENT_ID: acme.clientId,
    FINANCE_CLIENT_SECRET: acme.clientSecret,
  });
  const text = readFileSync(join(ROOT, 'docs/sync.md'), 'utf8');
  const code = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n');
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const file = join(ROOT, 'dist', 'sync-guide.ts');
  writeFileSync(file, code);
  guide = (await import(file)) as Guide;
});
afterAll(async () => server.close());

describe('docs/sync.md', () => {
  it('when the guide syncs, catches up after a PATCH and an arrival, and is nudged by a webhook, then its copy equals the list', async () => {
    const ledger: Ledger = { transactions: new Map() };
    await guide.initialSync(ledger);
    expect(ledger.transactions.size).toBe(130);

    await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: ids[5]! } },
      body: { notes: 'Conferido' },
    });
    await guide.catchUp(ledger);
    expect(ledger.transactions.get(ids[5]!)?.notes).toBe('Conferido');

    // A delivery signed as the server signs it nudges the ledger to catch up.
    await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: ids[6]! } },
      body: { notes: 'Pelo webhook' },
    });
    const secret = `whsec_${Buffer.from('a-test-signing-secret-32-bytes!!').toString('base64')}`;
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'banking_transaction.updated',
      createdAt: new Date().toISOString(),
      requestId: null,
      data: { object: {} },
    });
    const headers = new Webhook(secret).sign('msg_1', new Date(), body);
    const signed = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': headers,
    };
    await guide.onWebhook(ledger, body, signed, secret);
    expect(ledger.transactions.get(ids[6]!)?.notes).toBe('Pelo webhook');
  });

  it('when the guide is type-checked as written, then it compiles', async () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'ES2022', '--module', 'NodeNext'];
    await promisify(execFile)(
      process.execPath,
      [tsc, ...flags, '--moduleResolution', 'NodeNext', join(ROOT, 'dist', 'sync-guide.ts')],
      {
        cwd: ROOT,
      },
    );
  }, 60_000);

  it('when the guide polls the first page with its tag, then unchanged until a change, changed after it', async () => {
    const first = await guide.pollFirstPage(undefined);
    expect(first.changed).toBe(true);
    expect(await guide.pollFirstPage(first.etag)).toEqual({ changed: false, etag: first.etag });
    await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: ids[0]! } },
      body: { notes: 'Outra' },
    });
    expect((await guide.pollFirstPage(first.etag)).changed).toBe(true);
  });

  it('when the cursor can no longer be served, then the guide starts over with the initial sync', async () => {
    const ledger: Ledger = { transactions: new Map() };
    await guide.initialSync(ledger);
    ledger.transactions.clear();
    await server.db
      .updateTable('banking_transactions')
      .set({ change_seq: 0 })
      .where('company_id', '=', acme.companyId)
      .execute();
    await guide.catchUp(ledger);
    expect(ledger.transactions.size).toBe(130);
  });

  it('when the guide crashes in the middle of its initial sync, then it resumes from the saved cursor and its copy equals the list', async () => {
    let sets = 0;
    class Crashing extends Map<number, { id: number; notes: string; description: string }> {
      override set(key: number, value: { id: number; notes: string; description: string }) {
        sets += 1;
        if (sets === 120) throw new Error('the process died');
        return super.set(key, value);
      }
    }
    const ledger: Ledger = { transactions: new Crashing() };
    await expect(guide.initialSync(ledger)).rejects.toThrow('the process died');
    expect(ledger.cursor).toBeDefined();
    const saved = ledger.transactions.size;
    expect(saved).toBeGreaterThanOrEqual(100);
    await guide.catchUp(ledger);
    const { data } = await acme.api.GET('/statements/v1/banking/sync', { params: { query: { limit: 500 } } });
    expect([...ledger.transactions.keys()].sort((a, b) => a - b)).toEqual(
      data!.added.map((t) => t.id).sort((a, b) => a - b),
    );
  });

  it('when the guide writes back a batch with one unknown item, then nothing changes; without it, all change', async () => {
    const refused = await guide.writeBack([
      { id: ids[10]!, notes: 'Lote' },
      { id: ids[11]!, categoryId: 2_000_000_000 },
    ]);
    expect(refused.refused).toEqual(['transactions.1.categoryId: 2000000000 is not a category of the company']);
    expect(await guide.writeBack(ids.slice(10, 120).map((id) => ({ id, notes: 'Lote' })))).toEqual({});
    const notes = await server.db
      .selectFrom('banking_transactions')
      .select('notes')
      .where('id', 'in', ids.slice(10, 120))
      .execute();
    expect(notes.every((n) => n.notes === 'Lote')).toBe(true);
  });

  it("when someone else writes between the guide's read and its PATCH, then If-Match refuses it and the guide merges", async () => {
    let raced = false;
    const outcome = await guide.annotateIfUnchanged(ids[20]!, async (current) => {
      if (!raced) {
        raced = true;
        // Another person writes after our read, before our PATCH.
        await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
          params: { path: { transactionId: ids[20]! } },
          body: { notes: 'Maria' },
        });
      }
      return `${current} + João`;
    });
    expect(outcome).toBe('written');
    expect(raced).toBe(true);
    const row = await server.db
      .selectFrom('banking_transactions')
      .select('notes')
      .where('id', '=', ids[20]!)
      .executeTakeFirstOrThrow();
    expect(row.notes).toBe('Maria + João');
  });
});
