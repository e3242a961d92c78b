// Request counters shared by every worker and replica: one row per client (or address) and
// fixed one-minute window, incremented atomically with an upsert (server/http/ops/rate-limit-store.ts).
import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('rate_limit_windows')
    .addColumn('key', 'text', (c) => c.notNull())
    // The window's start, epoch milliseconds.
    .addColumn('window_start', t.bigInteger, (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pk', ['key', 'window_start'])
    .execute();
  await db.schema.createIndex('rate_limit_windows_start').on('rate_limit_windows').column('window_start').execute();
}
