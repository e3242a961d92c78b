// Accounting sync state of statement transactions (POST /accounting/v1/syncs): whether the company's
// ERP posted the transaction (its journal entry id), failed to (its message), or posted it before a
// change it has not seen. NOT_SYNCED until an ERP records anything.
import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<any>): Promise<void> {
  const { time } = columnTypes(db);
  for (const table of ['banking_transactions', 'credit_card_transactions']) {
    // One ALTER per column: SQLite adds one column per statement.
    await db.schema
      .alterTable(table)
      .addColumn('sync_status', 'text', (c) => c.notNull().defaultTo('NOT_SYNCED'))
      .execute();
    await db.schema.alterTable(table).addColumn('sync_reference_id', 'text').execute();
    await db.schema.alterTable(table).addColumn('sync_error', 'text').execute();
    await db.schema.alterTable(table).addColumn('synced_at', time).execute();
  }
}
