// The company's corporate cards (GET /credit-cards/v1/cards, block and unblock): one row per card,
// keyed by company and the `card_id` the credit-card statement's records carry. Every card id the
// statement already names becomes a card here (server/areas/statements/cards/register.ts keeps it so, with the
// same defaults as below: a physical, activated card that expires 4 years after it was first seen).
import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('cards')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('PHYSICAL', 'VIRTUAL')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('ACTIVATED', 'BLOCKED', 'CANCELLED', 'INACTIVATED')`),
    )
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('holder_name', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('product_name', 'text', (c) => c.notNull())
    .addColumn('responsible_user_id', 'text')
    .addColumn('cost_center_id', 'text')
    .addColumn('purpose', 'text')
    .addColumn('expiration_date', 'text', (c) => c.notNull())
    .addColumn('block_reason', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('cards_pkey', ['company_id', 'id'])
    .execute();
  await db.schema.createIndex('cards_page').on('cards').columns(['company_id', 'created_at', 'id']).execute();

  // The cards the statement already names, each from its earliest record.
  const named = await db
    .selectFrom('credit_card_transactions')
    .select(['company_id', 'card_id'])
    .select((eb) => [
      eb.fn.max('final_card_number').as('final_card_number'),
      eb.fn.max('bearer_name').as('bearer_name'),
      eb.fn.max('user_id').as('user_id'),
      eb.fn.min('created_at').as('created_at'),
    ])
    .groupBy(['company_id', 'card_id'])
    .execute();
  for (const row of named as Array<{
    company_id: string;
    card_id: string;
    final_card_number: string;
    bearer_name: string;
    user_id: string | null;
    created_at: string | Date;
  }>) {
    const at = new Date(row.created_at);
    const expiry = new Date(Date.UTC(at.getUTCFullYear() + 4, at.getUTCMonth() + 1, 0));
    await db
      .insertInto('cards')
      .values({
        company_id: row.company_id,
        id: row.card_id,
        type: 'PHYSICAL',
        status: 'ACTIVATED',
        last4: row.final_card_number,
        holder_name: row.bearer_name,
        name: `Cartão final ${row.final_card_number}`,
        product_name: 'Corporate Platinum',
        responsible_user_id: row.user_id,
        cost_center_id: null,
        purpose: null,
        expiration_date: expiry.toISOString().slice(0, 10),
        block_reason: null,
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      })
      .execute();
  }
}
