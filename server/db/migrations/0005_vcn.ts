import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('funding_cards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('card_type', 'text', (c) => c.notNull().check(sql`card_type in ('HOTEL', 'AERIAL', 'CUSTOM')`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('funding_cards_active')
    .on('funding_cards')
    .columns(['company_id', 'card_type', 'currency'])
    .unique()
    .where(sql.ref('active'), '=', 1)
    .execute();

  await db.schema
    .createTable('vcns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('HOTEL', 'AERIAL', 'CUSTOM')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('ACTIVE', 'BLOCKED', 'CANCELLED')`))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('holds_key', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('limit_minor', 'integer', (c) => c.notNull().check(sql`limit_minor > 0`))
    .addColumn('rate_minor', 'integer')
    .addColumn('taxes_minor', 'integer')
    .addColumn('fees_minor', 'integer')
    .addColumn('issued_on', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('max_purchase_quantity', 'integer', (c) => c.notNull())
    .addColumn('booking', 'text', (c) => c.notNull())
    .addColumn('custom_fields', 'text')
    .addColumn('requestor', 'text', (c) => c.notNull())
    .addColumn('funding_card_id', 'text', (c) => c.notNull().references('funding_cards.id'))
    .addColumn('provider_ref', 'text', (c) => c.notNull())
    .addColumn('pan_ciphertext', 'text', (c) => c.notNull())
    .addColumn('pan_last4', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // At most one card per company, type and idempotency key holds the key: the database enforces
  // what the issue transaction decides.
  await db.schema
    .createIndex('vcns_key_holder')
    .on('vcns')
    .columns(['company_id', 'type', 'idempotency_key'])
    .unique()
    .where(sql.ref('holds_key'), '=', 1)
    .execute();

  await db.schema
    .createTable('vcn_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('vcn_id', 'text', (c) => c.notNull().references('vcns.id'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('APPROVED', 'DECLINED')`))
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('local_date', 'text', (c) => c.notNull())
    .addColumn('merchant_name', 'text', (c) => c.notNull())
    .addColumn('merchant_category', 'text', (c) => c.notNull())
    .addColumn('authorization_code', 'text')
    .addColumn('decline_reason', 'text')
    .execute();
  await db.schema
    .createIndex('vcn_transactions_by_card')
    .on('vcn_transactions')
    .columns(['company_id', 'vcn_id', 'occurred_at', 'id'])
    .execute();

  await db.schema
    .createTable('vcn_reveals')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('vcn_id', 'text', (c) => c.notNull().references('vcns.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('revealed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vcn_reveals_by_card').on('vcn_reveals').columns(['company_id', 'vcn_id', 'revealed_at']).execute();
}
