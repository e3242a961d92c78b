// The statements' change feeds (`…/sync`, server/areas/statements/versions.ts): on each transaction the
// change number of its creation and of its latest change, which the feed reads in (change_seq, id)
// order; on PostgreSQL the sequence the numbers come from, and the number an ingest run reserved
// before its closing transaction (the feeds read nothing from it on until the run is done).
import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import { storeKind } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  if (storeKind(db) === 'postgres') await sql`create sequence statement_change_seq`.execute(db);
  await db.schema.alterTable('ingest_runs').addColumn('change_seq', t.bigInteger).execute();
  for (const table of ['banking_transactions', 'credit_card_transactions']) {
    await db.schema
      .alterTable(table)
      .addColumn('created_seq', t.bigInteger, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('change_seq', t.bigInteger, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex(`${table}_changes`).on(table).columns(['company_id', 'change_seq', 'id']).execute();
  }
}
