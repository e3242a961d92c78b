// Failed client authentications per client id, counted in fixed one-minute windows, so every
// process and replica throttles guessing of the same client together.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auth_failures')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    // Start of the current window, epoch milliseconds.
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_failures_window').on('auth_failures').column('window_start').execute();
}
