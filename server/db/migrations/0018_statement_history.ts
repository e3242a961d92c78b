// The statements' change feeds, always right (server/areas/statements/history.ts, store/remove.ts):
// - `statement_history`: one row, the identity of this store's history. A new database gets a new
//   one; `finance backup` gives its copy a new one and `finance mark-restored` gives a restored
//   PostgreSQL database one, so a feed cursor or list ETag issued by another history is refused (410)
//   however far the restored store has moved.
// - `statement_removals`: a pending transaction the provider dropped leaves its statement; its id
//   stays here, with the change number of its removal, so the feeds answer it once in `removed`.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('statement_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', t.time, (c) => c.notNull())
    .execute();
  await db.insertInto('statement_history').values({ id: randomUUID(), started_at: new Date().toISOString() }).execute();
  await db.schema
    .createTable('statement_removals')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('banking_transaction_id', t.bigInteger)
    .addColumn('credit_card_transaction_id', 'text')
    .addColumn('account_id', t.bigInteger)
    .addColumn('card_id', 'text')
    .addColumn('change_seq', t.bigInteger, (c) => c.notNull())
    .addColumn('removed_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('statement_removals_banking')
    .on('statement_removals')
    .columns(['company_id', 'change_seq', 'banking_transaction_id'])
    .where('banking_transaction_id', 'is not', null)
    .execute();
  await db.schema
    .createIndex('statement_removals_credit_card')
    .on('statement_removals')
    .columns(['company_id', 'change_seq', 'credit_card_transaction_id'])
    .where('credit_card_transaction_id', 'is not', null)
    .execute();
}
