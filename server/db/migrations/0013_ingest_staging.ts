// An ingest run writes its rows into staging tables, not the statements: readers never see a run
// that has not finished, with no condition added to their queries. The run's closing transaction
// moves them into the statement tables (store/ingest-staging.ts). Each staging table has the
// columns of its statement table, without constraints, plus the run and the row's place in it:
// a migration that adds a column to banking_transactions or credit_card_transactions adds it here too.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, staging] of [
    ['banking_transactions', 'ingest_banking_rows'],
    ['credit_card_transactions', 'ingest_credit_card_rows'],
  ] as const) {
    await sql`create table ${sql.table(staging)} as select * from ${sql.table(table)} where 1 = 0`.execute(db);
    await db.schema.alterTable(staging).addColumn('run_id', 'text').execute();
    await db.schema.alterTable(staging).addColumn('seq', 'integer').execute();
    await db.schema.createIndex(`${staging}_run`).on(staging).columns(['run_id', 'seq']).execute();
  }
}
