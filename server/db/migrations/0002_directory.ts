// The company directory: cost centers, suppliers, categories and their establishments.
// Names are unique per company compared trimmed and case-insensitively: each table keeps the
// normalized name in `name_key` under a unique index, so the database settles concurrent writers.
import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

/** The platform's catalogue of directory types (who maintains a supplier, category or establishment). */
const TYPES_SINCE = '2025-01-01T00:00:00.000Z';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('directory_types')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await (db as Kysely<{ directory_types: { id: number; type: string; created_at: string; updated_at: string } }>)
    .insertInto('directory_types')
    .values([
      { id: 1, type: 'DEFAULT', created_at: TYPES_SINCE, updated_at: TYPES_SINCE },
      { id: 2, type: 'CUSTOM', created_at: TYPES_SINCE, updated_at: TYPES_SINCE },
    ])
    .execute();

  await db.schema
    .createTable('cost_centers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    // The deprecated `responsible` of the list, as recorded by the legacy directory (not a reference to users).
    .addColumn('responsible_id', 'text')
    .addColumn('responsible_name', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('cost_centers_company_name')
    .unique()
    .on('cost_centers')
    .columns(['company_id', 'name_key'])
    .execute();

  for (const table of ['suppliers', 'categories'] as const) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'integer', t.autoId)
      .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('type_id', 'integer', (c) => c.notNull().references('directory_types.id'))
      .addColumn('created_at', t.time, (c) => c.notNull())
      .addColumn('updated_at', t.time, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex(`${table}_company_name`)
      .unique()
      .on(table)
      .columns(['company_id', 'name_key'])
      .execute();
    await db.schema.createIndex(`${table}_company_id`).on(table).columns(['company_id', 'id']).execute();
  }

  await db.schema
    .createTable('establishments')
    .addColumn('id', 'integer', t.autoId)
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type_id', 'integer', (c) => c.notNull().references('directory_types.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('establishments_category').on('establishments').columns(['category_id', 'id']).execute();
}
