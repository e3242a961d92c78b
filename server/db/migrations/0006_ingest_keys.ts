// `finance ingest` is idempotent per line: each stored line leaves its key here (the line's
// `externalId` when it has one, else a hash of its content and its occurrence in the file), and
// a later ingest skips the lines whose key is already present.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ingested_lines')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('line_key', 'text', (c) => c.notNull())
    .addColumn('statement', 'text', (c) => c.notNull())
    .addColumn('ingested_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ingested_lines_pk', ['company_id', 'line_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ingested_lines').execute();
}
