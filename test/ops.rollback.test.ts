// Rolling back: this build is "the previous release" of a newer one. The test migrates a database
// as the newer build would (every migration of this build plus one it does not know: a table, a
// NOT NULL column with a default on a table this build writes, an index), then runs this build's
// real `finance serve` on it: it starts, names the unknown migration, and serves reads and writes.
// A migration marked `_breaking` makes it refuse to start. `finance migrate --status` shows both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely, type Migration } from 'kysely';
import { migrate } from '../server/db/database.js';
import { openStore } from '../server/db/store.js';
import { migrations } from '../server/db/migrations/index.js';
import { systemClock } from '../server/lib/clock.js';
import { createCompany } from '../server/areas/auth/store.js';
import { freshDatabase } from './support/database.js';
import { sharedCompany, startServerProcess } from './support/processes.js';

/** What a newer build might add: expand-only. */
const newerExpand: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('cost_center_budgets')
      .addColumn('cost_center_id', 'text', (c) => c.primaryKey())
      .addColumn('amount', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .alterTable('cost_centers')
      .addColumn('budget_owner', 'text', (c) => c.notNull().defaultTo('finance'))
      .execute();
    await db.schema.createIndex('cost_centers_budget_owner').on('cost_centers').column('budget_owner').execute();
  },
};

let dir: string;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ops-rollback-'));
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** A database migrated by a newer build that also ran `extra`, with one company. */
async function migratedByNewerBuild(extra: Record<string, Migration>) {
  const location = await freshDatabase(dir, `${Math.random().toString(36).slice(2)}.sqlite`);
  const { db } = await openStore(location, { migrate: false });
  cleanups.push(() => db.destroy());
  await migrate(db, { ...migrations, ...extra });
  await createCompany(db, systemClock, { name: 'Rollback Ltda' });
  return { location, db };
}

const finance = (...args: string[]) =>
  spawnSync('node', ['bin/finance.js', ...args], { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn' } });

describe('rolling back', () => {
  it('when a newer build added tables, columns and indexes, then this build starts on its database, names what it does not know, and serves reads and writes', async () => {
    const { location, db } = await migratedByNewerBuild({ '0900_cost_center_budgets': newerExpand });
    const server = await startServerProcess(location);
    cleanups.push(() => server.stop());
    expect(server.stderr()).toMatch(/migrations this build does not know.*0900_cost_center_budgets/);

    const { apis } = await sharedCompany(db, [server]);
    const created = await apis[0]!.POST('/cost-centers/v1/cost-centers', { body: { name: 'Rolled back' } });
    expect(created.response.status).toBe(201);
    const list = await apis[0]!.GET('/cost-centers/v1/cost-centers');
    expect(list.response.status).toBe(200);
    expect(list.data!.items.map((c) => c.name)).toContain('Rolled back');
    // The newer build's column got its default on the row this build wrote.
    const row = await sql<{
      budget_owner: string;
    }>`select budget_owner from cost_centers where id = ${created.data!.id}`.execute(db);
    expect(row.rows[0]?.budget_owner).toBe('finance');

    const status = finance('migrate', '--status', '--db', location, '--json');
    expect(status.status).toBe(0);
    const report = JSON.parse(status.stdout) as Record<string, string[]>;
    expect(report.unknown).toEqual(['0900_cost_center_budgets']);
    expect(report.breaking).toEqual([]);
    expect(report.applied).toEqual(Object.keys(migrations).sort());
    expect(report.pending).toEqual([]);
  }, 90_000);

  it('when a newer build ran a migration marked as breaking older builds, then this build refuses to start and says which', async () => {
    const { location } = await migratedByNewerBuild({ '0901_drop_legacy_breaking': { up: async () => undefined } });
    await expect(startServerProcess(location)).rejects.toThrow(/newer build.*0901_drop_legacy_breaking/);
    const status = finance('migrate', '--status', '--db', location);
    expect(status.stdout).toMatch(/newer\s+0901_drop_legacy_breaking\s+\(breaks this build/);
  }, 90_000);

  it('when a database is behind, then --status lists the pending migrations and changes nothing', async () => {
    const location = await freshDatabase(dir, 'behind.sqlite');
    const names = Object.keys(migrations);
    const older = Object.fromEntries(names.slice(0, -1).map((name) => [name, migrations[name]!]));
    const { db } = await openStore(location, { migrate: false });
    cleanups.push(() => db.destroy());
    await migrate(db, older);
    const run = () => JSON.parse(finance('migrate', '--status', '--db', location, '--json').stdout);
    expect(run()).toMatchObject({ pending: [names.at(-1)], unknown: [] });
    expect(run()).toMatchObject({ pending: [names.at(-1)] });
  }, 90_000);
});
