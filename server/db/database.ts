// The store's Kysely type and its migrations. Opening a store: store.ts.
import { type Kysely, Migrator } from 'kysely';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';

export type Db = Kysely<Database>;

/** Runs every pending migration. Safe to run from several processes at once (the migrator locks). */
export async function migrate(db: Db): Promise<void> {
  // Numbers are reserved per change; one may land after a higher one already ran somewhere.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
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
