// Durability: the real server (`finance serve` on a SQLite file, or on PostgreSQL under
// TEST_DATABASE=postgres) under concurrent writers is killed with SIGKILL at a random moment and
// restarted. Every write it acknowledged is there, and no write is half-applied.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../server/db/store.js';
import { freshDatabase, onPostgres, sandboxEnv } from './support/database.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'finance-durability-'));
let dbPath: string;
beforeAll(async () => {
  dbPath = await freshDatabase(dir);
});
const env = () => ({ ...process.env, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', ...sandboxEnv(dbPath) });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(port: number): Promise<ChildProcess> {
  const child = spawn('node', ['bin/finance.js', 'serve', '--db', dbPath, '--port', String(port)], { env: env() });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Token URL')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  return child;
}

describe('kill -9 under concurrent writes', () => {
  it('when the server is killed mid-write and restarted, then every acknowledged write is present and none is half-applied', async () => {
    const company = JSON.parse(
      (
        await run('node', ['bin/finance.js', 'company', 'create', '--name', 'Duravel Ltda', '--db', dbPath, '--json'], {
          env: env(),
        })
      ).stdout,
    ) as { companyId: string; clientId: string; clientSecret: string };
    await run(
      'node',
      ['bin/finance.js', 'seed', '--company', company.companyId, '--transactions', '50', '--db', dbPath, '--json'],
      { env: env() },
    );
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const base = `http://127.0.0.1:${port}`;
    const child = await serve(port);
    const tokenRes = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: company.clientId,
        client_secret: company.clientSecret,
      }),
    });
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const list = (await (await fetch(`${base}/statements/v1/banking?limit=50`, { headers })).json()) as {
      transactions: Array<{ id: number }>;
    };
    const transactionIds = list.transactions.map((t) => t.id);

    // Acknowledged writes: cost centers by id; for each transaction, the last acknowledged
    // PATCH (notes and cost center set together).
    const costCenters = new Map<string, string>();
    const patches: Array<{ transactionId: number; costCenterId: string; notes: string }> = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const name = `CC ${w}-${i}`;
          const created = await fetch(`${base}/cost-centers/v1/cost-centers`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name }),
          });
          if (created.status !== 201) continue;
          const { id } = (await created.json()) as { id: string };
          costCenters.set(id, name);
          const transactionId = transactionIds[(w * 7 + i) % transactionIds.length]!;
          const notes = `cc:${id}`;
          const patched = await fetch(`${base}/statements/v1/banking/${transactionId}`, {
            method: 'PATCH',
            headers,
            body: JSON.stringify({ notes, costCenterId: id }),
          });
          if (patched.status === 204) patches.push({ transactionId, costCenterId: id, notes });
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    // Killed at a random moment once some writes were acknowledged (a loaded machine answers the first ones late).
    for (let waited = 0; (costCenters.size === 0 || patches.length === 0) && waited < 60_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 700)));
    const killed = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await killed;
    stop = true;
    await Promise.all(writers);
    expect(costCenters.size).toBeGreaterThan(0);
    expect(patches.length).toBeGreaterThan(0);

    // Restart on the same file: the server opens it (recovering the WAL) and answers.
    const again = await serve(port);
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    again.kill('SIGTERM');
    await new Promise((resolve) => again.once('exit', resolve));

    const db = (await openStore(dbPath)).db;
    try {
      if (!onPostgres) {
        const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
        expect(integrity.rows.map((r) => r.integrity_check)).toEqual(['ok']);
      }
      const stored = new Map(
        (
          await db
            .selectFrom('cost_centers')
            .select(['id', 'name'])
            .where('company_id', '=', company.companyId)
            .execute()
        ).map((r) => [r.id, r.name]),
      );
      for (const [id, name] of costCenters) expect(stored.get(id), `acknowledged cost center ${name}`).toBe(name);
      // A transaction's notes and cost center were written by one PATCH: they always agree.
      const rows = await db
        .selectFrom('banking_transactions')
        .select(['id', 'notes', 'cost_center_id'])
        .where('company_id', '=', company.companyId)
        .execute();
      for (const row of rows) {
        if (row.notes.startsWith('cc:')) expect(row.cost_center_id, `transaction ${row.id}`).toBe(row.notes.slice(3));
      }
      // A transaction with an acknowledged PATCH still holds one (a later, unacknowledged one may
      // have replaced it), pointing at a cost center that exists.
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      for (const p of patches) {
        const current = byId.get(p.transactionId)!.cost_center_id;
        expect(current, `transaction ${p.transactionId}`).not.toBeNull();
        expect(stored.has(current!), `cost center ${current}`).toBe(true);
      }
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
