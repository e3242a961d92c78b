// Running statement exports, one row each, so that every worker and replica counts a company's
// exports against one limit (server/areas/statements/exports/leases.ts).
import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('export_leases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    // Epoch milliseconds.
    .addColumn('expires_at', t.bigInteger, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('export_leases_company').on('export_leases').columns(['company_id']).execute();
}
