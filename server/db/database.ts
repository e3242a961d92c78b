// Opens the store: SQLite (a file path, or `:memory:`) or PostgreSQL (a `postgres://…` URL), then
// runs the migrations to the latest version. This folder is the only place that knows which one:
// sqlite.ts and postgres.ts open them, dialect.ts and column-types.ts hold the few differences,
// transaction.ts and errors.ts make writes behave the same under concurrency.
import { Kysely, Migrator, sql, type Migration } from 'kysely';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { migrationStatus, withUnknown } from './migration-status.js';
import { isPostgresUrl } from './dialect.js';
import { sqliteDialect } from './sqlite.js';
import { postgresDialect, SixtyFourBitIntegers } from './postgres.js';

export type Db = Kysely<Database>;

export { isPostgresUrl, storeKind } from './dialect.js';

/** Opens (creating a SQLite file when absent) and migrates the database at `location`. */
export async function openDatabase(location: string, options: { migrate?: boolean } = {}): Promise<Db> {
  const dialect = isPostgresUrl(location) ? postgresDialect(location).dialect : await sqliteDialect(location);
  const db = new Kysely<Database>({ dialect, plugins: isPostgresUrl(location) ? [new SixtyFourBitIntegers()] : [] });
  if (options.migrate !== false) {
    try {
      await migrate(db);
    } catch (err) {
      await db.destroy();
      throw err;
    }
  }
  if (isPostgresUrl(location)) await warnUnlessByteOrder(db);
  return db;
}

/** Names and keys sort byte-wise on SQLite; PostgreSQL does too only under a C collation. */
async function warnUnlessByteOrder(db: Db): Promise<void> {
  const { rows } = await sql<{
    collation: string;
  }>`select datcollate as collation from pg_database where datname = current_database()`.execute(db);
  const collation = rows[0]?.collation ?? '';
  if (!/^(C|POSIX|C\.UTF-?8)$/i.test(collation)) {
    process.stderr.write(
      `warning: the database collation is ${collation}; create it with LC_COLLATE 'C.UTF-8' so lists sort as on SQLite\n`,
    );
  }
}

/**
 * Runs every pending migration. Safe to run from several processes at once (the migrator locks).
 * Migrations a newer build ran are logged and left alone, unless one is marked as breaking older
 * builds (migration-status.ts): then this build refuses the database. `known`: this build's list.
 */
export async function migrate(db: Db, known: Record<string, Migration> = migrations): Promise<void> {
  const status = await migrationStatus(db as never, known);
  if (status.breaking.length > 0) {
    throw new Error(
      `The database was migrated by a newer build with changes older builds cannot run on (${status.breaking.join(', ')}); deploy that build or newer`,
    );
  }
  if (status.unknown.length > 0) {
    process.stderr.write(
      `warning: the database has migrations this build does not know (run by a newer build): ${status.unknown.join(', ')}; they only add to the schema, starting anyway\n`,
    );
  }
  // Numbers are reserved per change; one may land after a higher one already ran somewhere.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => withUnknown(known, status.unknown) },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Where the store lives, for messages: a URL without its password, or the file path. */
export function describeLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://…';
  }
}
