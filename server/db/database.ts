// The store's Kysely type and its migrations. Opening a store: store.ts.
import { warnLine } from '../lib/warn.js';
import { type Kysely, Migrator, type Migration } from 'kysely';
import { migrations } from './migrations/index.js';
import { describeMissing, missingObjects } from './migrations/objects.js';
import { migrationStatus, withUnknown } from './migration-status.js';
import { storeKind } from './dialect.js';
import { migratePostgres, type PostgresMigrateOptions } from './migrate-postgres.js';

/**
 * The tables as Kysely sees them. Empty here: server/db/ is plumbing and names no table; each owner
 * declares its tables in its tables.ts and server/schema.ts merges them into this interface.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in server/schema.ts
export interface Database {}

export type Db = Kysely<Database>;

/** Refuses a database a newer build migrated with changes this build cannot run on; names the ones it does not know. */
function acceptNewer(status: Awaited<ReturnType<typeof migrationStatus>>): void {
  if (status.breaking.length > 0) {
    throw new Error(
      `The database was migrated by a newer build with changes older builds cannot run on (${status.breaking.join(', ')}); deploy that build or newer`,
    );
  }
  if (status.unknown.length > 0) {
    warnLine(
      `the database has migrations this build does not know (run by a newer build): ${status.unknown.join(', ')}; they only add to the schema, starting anyway`,
    );
  }
}

interface MigrateOptions extends PostgresMigrateOptions {
  /** Warn of what the migrations made that the database lacks (default true; `finance migrate` reports it itself). */
  warnMissing?: boolean;
}

/**
 * Runs every pending migration; the names of those this call ran. Safe to run from several processes
 * at once (they take turns on a lock), and on PostgreSQL beside a serving service: each migration in a
 * transaction of its own that gives way to the service's requests and runs again (migrate-postgres.ts).
 * Migrations a newer build ran are logged and left alone, unless one is marked as breaking older
 * builds (migration-status.ts): then this build refuses the database. Then warns of what the
 * migrations made that the database lacks (migrations/objects.ts). `known`: this build's list.
 */
export async function migrate(
  db: Db,
  known: Record<string, Migration> = migrations,
  options: MigrateOptions = {},
): Promise<string[]> {
  const status = await migrationStatus(db as never, known);
  acceptNewer(status);
  const ran = status.pending.length > 0 ? await runPending(db, withUnknown(known, status.unknown), options) : [];
  const missing = options.warnMissing === false ? [] : await missingObjects(db, Object.keys(known));
  if (missing.length > 0)
    warnLine(
      `the database lacks what its migrations made (finance migrate --status): ${missing.map(describeMissing).join('; ')}`,
    );
  return ran;
}

async function runPending(db: Db, provided: Record<string, Migration>, options: MigrateOptions): Promise<string[]> {
  if (storeKind(db) === 'postgres') return migratePostgres(db, provided, options);
  // Numbers are reserved per change; one may land after a higher one already ran somewhere.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => provided },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** A store with migrations of this build it has not run, opened by what does not migrate. */
export class SchemaBehindError extends Error {
  constructor(readonly pending: string[]) {
    super(`${pending.length} migration(s) of this build not run: ${pending.join(', ')}`);
    this.name = 'SchemaBehindError';
  }
}

/**
 * For what opens a store without migrating it (the `finance` commands but `migrate` and `serve`): a
 * store behind this build is refused (SchemaBehindError), so a command run with a newer build never
 * changes the schema of a store its servers run on. A new store (no migration run on it) is given the
 * schema when `createNew` says the command makes one (`company create`, `seed --demo`).
 */
export async function requireSchema(db: Db, { createNew = false } = {}): Promise<void> {
  const status = await migrationStatus(db as never, migrations);
  acceptNewer(status);
  if (status.pending.length === 0) return;
  if (createNew && status.applied.length === 0 && status.unknown.length === 0) await migrate(db);
  else throw new SchemaBehindError(status.pending);
}
