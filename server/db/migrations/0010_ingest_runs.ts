// Ingest runs: `finance ingest` publishes its rows in short transactions (the API keeps writing
// between them) and tags each row with its run. A run that fails, or whose process died (no
// heartbeat), is undone row by row, so an ingest leaves either every line or none.
import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('ingest_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('LOADING', 'DONE')`))
    .addColumn('started_at', t.time, (c) => c.notNull())
    .addColumn('heartbeat_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ingest_runs_loading')
    .on('ingest_runs')
    .column('heartbeat_at')
    .where(sql.ref('status'), '=', 'LOADING')
    .execute();
  for (const table of ['banking_transactions', 'credit_card_transactions']) {
    await db.schema.alterTable(table).addColumn('ingest_run_id', 'text').execute();
    await db.schema
      .createIndex(`${table}_ingest_run`)
      .on(table)
      .column('ingest_run_id')
      .where('ingest_run_id', 'is not', null)
      .execute();
  }
}
