// `finance backup`: an online copy of a SQLite store taken while a real `finance serve` keeps writing,
// verified with integrity_check, and good enough to serve the company from. On PostgreSQL the command
// prints docs/operating.md's pg_dump and pg_restore lines and points to point-in-time recovery instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { financeInProcess } from './support/cli.js';
import { freshDatabase, onPostgres } from './support/database.js';
import { apiFor, sharedCompany, startProcesses, startServerProcess } from './support/processes.js';
import { commandLines, postgresRecipe } from './support/restore-recipe.js';

let dir: string;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ops-backup-'));
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `finance …` without blocking the event loop (the server under test shares it with the writer). */
const finance = (...args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('node', ['bin/finance.js', ...args], { env: { ...process.env, LOG_LEVEL: 'warn' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });

describe.skipIf(onPostgres)('finance backup on SQLite', () => {
  it('when the server writes throughout the backup, then the copy passes integrity_check and serves the company', async () => {
    const location = await freshDatabase(dir, 'live.sqlite');
    const { db, servers } = await startProcesses(location, [1]);
    cleanups.push(() => db.destroy());
    cleanups.push(() => Promise.all(servers.map((s) => s.stop())));
    const company = await sharedCompany(db, servers);

    let writing = true;
    const statuses: number[] = [];
    const writer = (async () => {
      for (let i = 0; writing; i += 1) {
        const { response } = await company.apis[0]!.POST('/cost-centers/v1/cost-centers', {
          body: { name: `Center ${i}` },
        });
        statuses.push(response.status);
      }
    })();
    while (statuses.length < 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const out = join(dir, 'copy.sqlite');
    const writtenBefore = statuses.length;
    const backup = await finance('backup', '--db', location, '--out', out, '--json');
    const writtenDuring = statuses.length - writtenBefore;
    writing = false;
    await writer;

    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ out, integrity: 'ok' });
    expect(writtenDuring).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([201]));
    expect(existsSync(`${out}.partial`)).toBe(false);

    const copy = new SQLite(out, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    const inCopy = (
      copy.prepare('select count(*) as n from cost_centers where company_id = ?').get(company.companyId) as {
        n: number;
      }
    ).n;
    copy.close();
    expect(inCopy).toBeGreaterThanOrEqual(writtenBefore);
    expect(inCopy).toBeLessThanOrEqual(statuses.length);

    // Restored: a server on the copy answers the company with what the copy holds, same token.
    const restored = await startServerProcess(out);
    cleanups.push(() => restored.stop());
    const api = apiFor(restored.baseUrl, company.token);
    const page = await api.GET('/cost-centers/v1/cost-centers');
    expect(page.response.status).toBe(200);
    const seen = page.data!.items.length;
    expect(seen).toBe(inCopy);
  }, 120_000);

  it('when the output file exists or the database does not, then the backup refuses and leaves both alone', async () => {
    const existing = join(dir, 'existing.sqlite');
    writeFileSync(existing, 'keep me');
    const location = await freshDatabase(dir, 'other.sqlite');
    const { db } = await startProcesses(location, []);
    cleanups.push(() => db.destroy());
    // Refusals need no process of their own: the command runs in this one.
    const refused = await financeInProcess(['backup', '--db', location, '--out', existing]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/exists/);
    const missing = await financeInProcess([
      'backup',
      '--db',
      join(dir, 'absent.sqlite'),
      '--out',
      join(dir, 'x.sqlite'),
    ]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/no database at/);
    expect(existsSync(join(dir, 'x.sqlite'))).toBe(false);
  }, 60_000);
});

describe.runIf(onPostgres)('finance backup on PostgreSQL', () => {
  it('when given a postgres:// URL, then it prints the dump and restore lines of docs/operating.md and points to point-in-time recovery, and exits 2', async () => {
    const location = await freshDatabase(dir);
    const result = spawnSync('node', ['bin/finance.js', 'backup', '--db', location, '--out', join(dir, 'pg.dump')], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    const { dump, restore } = postgresRecipe();
    for (const line of commandLines(`${dump}${restore}`)) expect(result.stderr).toContain(line);
    expect(result.stderr).toMatch(/umask 077 && pg_dump/);
    expect(result.stderr).toMatch(/finance mark-restored/);
    expect(result.stderr).toMatch(/point-in-time recovery/);
    expect(existsSync(join(dir, 'pg.dump'))).toBe(false);
  }, 60_000);
});
