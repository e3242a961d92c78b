import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('funding_cards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('card_type', 'text', (c) => c.notNull().check(sql`card_type in ('HOTEL', 'AERIAL', 'CUSTOM')`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', t.time, (c) => c.notNull())
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
    // PENDING: a reservation taken before the issuer is called (internal, never in the API).
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING', 'ACTIVE', 'BLOCKED', 'CANCELLED')`))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('holds_key', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('limit_minor', t.money, (c) => c.notNull().check(sql`limit_minor > 0`))
    .addColumn('rate_minor', t.money)
    .addColumn('taxes_minor', t.money)
    .addColumn('fees_minor', t.money)
    .addColumn('issued_on', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('max_purchase_quantity', 'integer', (c) => c.notNull())
    .addColumn('booking', 'text', (c) => c.notNull())
    .addColumn('custom_fields', 'text')
    .addColumn('requestor', 'text', (c) => c.notNull())
    .addColumn('funding_card_id', 'text', (c) => c.notNull().references('funding_cards.id'))
    .addColumn('provider_ref', 'text')
    .addColumn('pan_ciphertext', 'text')
    .addColumn('pan_last4', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    // A top-up in flight at the issuer: at most one per card.
    .addColumn('change_id', 'text')
    .addColumn('change_started_at', t.time)
    .addColumn('change_limit_minor', t.money)
    .addColumn('change_end_date', 'text')
    .addColumn('replaces_id', 'text', (c) => c.references('vcns.id'))
    // Only a reservation lacks card data; a change token always has its start time.
    .addCheckConstraint(
      'vcns_card_data',
      sql`(status = 'PENDING' and pan_ciphertext is null and provider_ref is null and pan_last4 is null)
        or (status <> 'PENDING' and pan_ciphertext is not null and provider_ref is not null and pan_last4 is not null)`,
    )
    .addCheckConstraint('vcns_change', sql`(change_id is null) = (change_started_at is null)`)
    .execute();
  // At most one row per company, type and idempotency key holds the key — an issued card or a
  // reservation (PENDING): the database enforces what the issue transactions decide.
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
    .addColumn('amount_minor', t.money, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('occurred_at', t.time, (c) => c.notNull())
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
    .addColumn('id', 'integer', t.autoId)
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('vcn_id', 'text', (c) => c.notNull().references('vcns.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('revealed_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('vcn_reveals_by_card')
    .on('vcn_reveals')
    .columns(['company_id', 'vcn_id', 'revealed_at'])
    .execute();
}
