// Restoring PostgreSQL as docs/operating.md says, and what `finance migrate --status` checks beside the
// migration table: the extensions, functions, triggers and word-search indexes the migrations made
// (server/db/migrations/objects.ts), which a restore can lose while every migration reads as applied.
// The recipe's lines run as written (`npx finance` as `node bin/finance.js`), from a copy of a migrated
// database into a new one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { Db } from '../server/db/database.js';
import { openStore } from '../server/db/store.js';
import { documentHolds } from '../server/db/dialect.js';
import { migrations } from '../server/db/migrations/index.js';
import { expectedObjects, presentObjects } from '../server/db/migrations/objects.js';
import { BANKING_DOCUMENT } from '../server/areas/statements/store/search.js';
import { financeInProcess, stderrOf } from './support/cli.js';
import { freshDatabase, migratedDatabase, onPostgres } from './support/database.js';
import { postgresRecipe } from './support/restore-recipe.js';

const run = promisify(execFile);
const BIN = join(process.cwd(), 'bin/finance.js');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ops-restore-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A block of the recipe run by bash in `dir`, with DATABASE_URL set; rejects when a line fails. */
const runBlock = (block: string, databaseUrl: string) =>
  run('bash', ['-euo', 'pipefail', '-c', block.replaceAll('npx finance', `node ${BIN}`)], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  });

async function withDb<T>(location: string, work: (db: Db) => Promise<T>): Promise<T> {
  const store = await openStore(location, { migrate: false });
  try {
    return await work(store.db);
  } finally {
    await store.close();
  }
}

/** The plan of a banking word search (`q=cafe`) where a scan is the last resort. */
const searchPlan = (location: string) =>
  withDb(location, (db) =>
    db.connection().execute(async (conn) => {
      await sql`set enable_seqscan = off`.execute(conn);
      const { rows } = await sql<Record<string, string>>`explain select id from banking_transactions
        where ${documentHolds(conn, BANKING_DOCUMENT, 'cafe')}`.execute(conn);
      return rows.map((row) => Object.values(row)[0]).join('\n');
    }),
  );

const status = (location: string) => financeInProcess(['migrate', '--status', '--db', location]);

describe.runIf(onPostgres)('restoring PostgreSQL as docs/operating.md says', () => {
  it('when a migrated database is dumped and restored into a new one, then pg_restore reports nothing, every object is back and a word search reads its index', async () => {
    const source = await migratedDatabase();
    const target = await freshDatabase();
    const { dump, restore } = postgresRecipe();
    await runBlock(dump, source);
    expect(statSync(join(dir, 'finance.dump')).mode & 0o777).toBe(0o600);

    const restored = await runBlock(restore, target);
    expect(restored.stderr).toBe('');
    expect(restored.stdout).toMatch(/history/);
    expect(restored.stdout).toMatch(/applied {2}0038_restore_safe_functions/);
    expect(restored.stdout).not.toMatch(/missing|invalid/);
    expect(await searchPlan(target)).toMatch(/Bitmap Index Scan on banking_transactions_search/);
  }, 60_000);

  it('when a dump was taken before migration 0038, then the documented restore refuses it whole, and restored without --single-transaction finance migrate makes it whole', async () => {
    const source = await migratedDatabase();
    // The function as migration 0020 defined it, and 0038 not run.
    await withDb(source, async (db) => {
      await sql`create or replace function finance_fold(text) returns text language sql immutable parallel safe strict
        as $$ select lower(unaccent('unaccent'::regdictionary, $1)) $$`.execute(db);
      await sql`delete from kysely_migration where name = '0038_restore_safe_functions'`.execute(db);
    });
    const { dump, restore } = postgresRecipe();
    await runBlock(dump, source);

    const target = await freshDatabase();
    const refused = await runBlock(restore, target).catch((err: { stderr: string }) => err);
    expect(refused.stderr).toMatch(/text search dictionary "unaccent" does not exist/);
    expect(
      await withDb(target, async (db) => (await presentObjects(db)).filter((o) => o.kind !== 'extension')),
    ).toEqual([]);

    const [pgRestore] = restore.split('\n');
    const partial = await runBlock(pgRestore!.replace(' --single-transaction', ''), target).catch(
      (err: { stderr: string }) => err,
    );
    expect(partial.stderr).toMatch(/errors ignored on restore: 2/);
    expect((await status(target)).stdout).toMatch(/missing index banking_transactions_search/);
    await runBlock('npx finance migrate --db "$DATABASE_URL"', target);
    expect((await status(target)).code).toBe(0);
    expect(await searchPlan(target)).toMatch(/Bitmap Index Scan on banking_transactions_search/);
  }, 60_000);
});

describe('what the migrations made beside their tables', () => {
  it('when one of them is dropped, then opening the store warns of it, migrate --status names it and exits 1, and --repair rebuilds it on PostgreSQL', async () => {
    const location = await migratedDatabase();
    const [kind, name] = onPostgres ? ['index', 'banking_transactions_search'] : ['trigger', 'banking_search_insert'];
    await withDb(location, (db) => sql`drop ${sql.raw(kind)} ${sql.id(name)}`.execute(db));

    const warned = await stderrOf(async () => (await openStore(location)).close());
    expect(warned).toMatch(new RegExp(`lacks what its migrations made .*missing ${kind} ${name}`));
    const found = await status(location);
    expect(found.code).toBe(1);
    expect(found.stdout).toMatch(new RegExp(`missing ${kind} ${name} \\(0020_statement_search\\): `));
    const json = JSON.parse((await financeInProcess(['migrate', '--status', '--json', '--db', location])).stdout);
    expect(json.missing).toMatchObject([{ kind, name, problem: 'missing' }]);

    const repaired = await financeInProcess(['migrate', '--repair', '--db', location]);
    if (onPostgres) {
      expect(repaired).toMatchObject({ code: 0, stdout: expect.stringMatching(`rebuilt index ${name}\n`) });
      expect((await status(location)).code).toBe(0);
      expect(await searchPlan(location)).toMatch(/Bitmap Index Scan on banking_transactions_search/);
    } else {
      expect(repaired.code).toBe(1);
      expect(repaired.stderr).toMatch(
        `missing trigger ${name} (0020_statement_search): restore a copy made by finance backup`,
      );
    }
  }, 60_000);

  it('when a database is new, then the lists name every function, trigger, extension, virtual table and index built on our functions it has', async () => {
    const location = await migratedDatabase();
    await withDb(location, async (db) => {
      const listed = expectedObjects(db).map((o) => `${o.kind} ${o.name}`);
      const present = (await presentObjects(db))
        .filter((o) => o.kind !== 'index' && !(o.kind === 'extension' && o.name === 'plpgsql'))
        .map((o) => `${o.kind} ${o.name}`);
      // Indexes whose expression calls a function of this schema or uses an extension's operator class.
      const builtOnOurs = onPostgres
        ? (
            await sql<{ name: string }>`select distinct c.relname as name from pg_depend d
              join pg_class c on c.oid = d.objid and c.relkind = 'i'
              left join pg_proc p on d.refclassid = 'pg_proc'::regclass and p.oid = d.refobjid
              left join pg_opclass o on d.refclassid = 'pg_opclass'::regclass and o.oid = d.refobjid
              where d.classid = 'pg_class'::regclass
                and (p.pronamespace = current_schema()::regnamespace or o.opcnamespace = current_schema()::regnamespace)`.execute(
              db,
            )
          ).rows.map((row) => `index ${row.name}`)
        : [];
      expect([...present, ...builtOnOurs].sort()).toEqual([...listed].sort());
      expect(Object.keys(migrations)).toEqual(
        expect.arrayContaining([...new Set(expectedObjects(db).map((o) => o.migration))]),
      );
    });
  }, 60_000);
});
