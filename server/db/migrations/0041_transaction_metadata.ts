// Metadata on statement transactions: the caller's own string keys and values (an ERP's journal
// entry id, its batch), kept as one JSON object per row, `{}` when none. The API bounds it (50 keys,
// key ≤ 40 characters, value ≤ 500); the column only holds what the PATCH wrote.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['banking_transactions', 'credit_card_transactions'])
    await db.schema
      .alterTable(table)
      .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
}
