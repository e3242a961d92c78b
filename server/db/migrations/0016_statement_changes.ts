// The statements' change feed (`…/sync`, server/db/statement-versions.ts): a counter per company that
// every write of a statement row advances under the counter row's lock, and on each transaction the
// counter value of its creation and of its latest change. The feed reads rows in (change_seq, id)
// order, so a reader that has seen a value has seen every change committed before it.
import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('statement_versions')
    .addColumn('company_id', 'text', (c) => c.primaryKey())
    .addColumn('version', t.bigInteger, (c) => c.notNull())
    .execute();
  for (const table of ['banking_transactions', 'credit_card_transactions']) {
    await db.schema
      .alterTable(table)
      .addColumn('created_seq', t.bigInteger, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('change_seq', t.bigInteger, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex(`${table}_changes`)
      .on(table)
      .columns(['company_id', 'change_seq', 'id'])
      .execute();
  }
}
