// The store a test runs on: SQLite by default, PostgreSQL when TEST_DATABASE=postgres
// (`npm run test:pg`). Every server or CLI test gets its own empty database, so files stay parallel:
// a SQLite file, opened as `finance serve` opens it (a writer and a reader connection, WAL), or a
// PostgreSQL database created for it. Databases created here
// are named `finance_test_…` and dropped once the run ends (test/support/global-setup.ts).
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { isPostgresUrl, openStore } from '../../server/db/store.js';

export const onPostgres = process.env.TEST_DATABASE === 'postgres';

/** What a sandbox `finance serve` on `location` needs in its environment: on PostgreSQL, SANDBOX=true. */
export const sandboxEnv = (location: string): Record<string, string> =>
  isPostgresUrl(location) ? { SANDBOX: 'true' } : {};

/** The server-level URL tests create their databases through. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const TEST_DATABASE_PREFIX = 'finance_test_';

/** `finance_test_<run start, epoch seconds>_<run id>_`: a run drops its own, and leftovers of old runs. */
export const runPrefix = () =>
  `${TEST_DATABASE_PREFIX}${process.env.TEST_DATABASE_RUN ?? `${Math.floor(Date.now() / 1000)}_solo`}_`;

const urlOf = (name: string) => {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * Drops the test databases `which` picks. A DROP DATABASE waits ~0.1 s on the server (every backend
 * releasing the database's files), not on its CPU: they go over four connections.
 */
export async function dropDatabases(which: (name: string) => boolean): Promise<void> {
  const { rows } = await withAdmin((c) =>
    c.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${TEST_DATABASE_PREFIX}%`]),
  );
  const names = rows.map((row) => row.datname).filter(which);
  await Promise.all(
    Array.from({ length: Math.min(4, names.length) }, () =>
      withAdmin(async (c) => {
        for (let name = names.pop(); name; name = names.pop())
          await c.query(`drop database if exists "${name}" with (force)`);
      }),
    ),
  );
}

export async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The run's migrated PostgreSQL database, copied by `migratedDatabase` (made by the global setup). */
const templateName = () => `${runPrefix()}template`;

/**
 * A new PostgreSQL database (C collation, as the store expects), empty or a copy of the run's migrated
 * template; its URL. Commits do not wait for the WAL flush: a test kills processes, never the server,
 * so nothing it checks depends on it, and the PostgreSQL pass spends less time waiting on the disk.
 */
async function createPostgresDatabase(template = 'template0'): Promise<string> {
  const name = `${runPrefix()}${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(async (c) => {
    await c.query(createDatabaseSql(name, template));
    await c.query(`alter database ${name} set synchronous_commit = off`);
  });
  return urlOf(name);
}

const createDatabaseSql = (name: string, template: string) =>
  `create database ${name} template ${template} encoding 'UTF8' lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8'`;

/** Creates the run's PostgreSQL template: an empty database, migrated to this build's latest. */
export async function createPostgresTemplate(): Promise<void> {
  await withAdmin((c) => c.query(createDatabaseSql(templateName(), 'template0')));
  const store = await openStore(urlOf(templateName()));
  await store.close();
}

/**
 * A location for a fresh database: on SQLite a file in `dir` (a new temporary folder without one), on
 * PostgreSQL a new database's URL.
 */
export async function freshDatabase(dir?: string, file = 'finance.sqlite'): Promise<string> {
  if (onPostgres) return createPostgresDatabase();
  return join(dir ?? mkdtempSync(join(tmpdir(), 'finance-test-')), file);
}

let sqliteTemplate: string | undefined;

/**
 * A location for a database already migrated to this build's latest: a copy of a template migrated
 * once (per test process on SQLite, per run on PostgreSQL), so that each test server does not run
 * every migration again. The tests of migrating itself start from `freshDatabase`.
 */
export async function migratedDatabase(): Promise<string> {
  if (onPostgres) return createPostgresDatabase(templateName());
  if (!sqliteTemplate) {
    const path = join(mkdtempSync(join(tmpdir(), 'finance-template-')), 'finance.sqlite');
    const store = await openStore(path);
    await store.close();
    sqliteTemplate = path;
    process.once('exit', () => rmSync(dirname(path), { recursive: true, force: true }));
  }
  const location = await freshDatabase();
  copyFileSync(sqliteTemplate, location);
  if (existsSync(`${sqliteTemplate}-wal`)) copyFileSync(`${sqliteTemplate}-wal`, `${location}-wal`);
  return location;
}
