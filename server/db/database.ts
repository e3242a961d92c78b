// The store's Kysely type and its migrations. Opening a store: store.ts.
import { warnLine } from '../lib/warn.js';
import { type Kysely, Migrator, type Migration } from 'kysely';
import { migrations } from './migrations/index.js';
import { migrationStatus, withUnknown } from './migration-status.js';

/**
 * The tables as Kysely sees them. Empty here: server/db/ is plumbing and names no table; each owner
 * declares its tables in its tables.ts and server/schema.ts merges them into this interface.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in server/schema.ts
export interface Database {}

export type Db = Kysely<Database>;

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
    warnLine(
      `the database has migrations this build does not know (run by a newer build): ${status.unknown.join(', ')}; they only add to the schema, starting anyway`,
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
