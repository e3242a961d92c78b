// Statements: accounts, banking and credit-card transactions, bills, attachments.
// Indexes follow DESIGN §5: every banking-list filter has an index that leads with it (or with
// company_id and it) and ends with the sort key, so keyset pages read only the rows they return.
// Classification columns point at the directory and users with ON DELETE SET NULL.
import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

type Db = Kysely<unknown>;

async function index(db: Db, name: string, table: string, columns: string[]): Promise<void> {
  await db.schema.createIndex(name).on(table).columns(columns).execute();
}

export async function up(db: Db): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'integer', t.autoId)
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('bank_code', 'text', (c) => c.notNull())
    .addColumn('bank_name', 'text', (c) => c.notNull())
    .addColumn('branch', 'text', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('opening_balance_minor', t.money, (c) => c.notNull())
    .addColumn('balance_minor', t.money, (c) => c.notNull())
    .addColumn('blocked_minor', t.money, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await index(db, 'accounts_company', 'accounts', ['company_id', 'id']);

  await db.schema
    .createTable('banking_transactions')
    .addColumn('id', 'integer', t.autoId)
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
    .addColumn('transaction_type_id', 'integer', (c) => c.notNull())
    .addColumn('transaction_type_description', 'text', (c) => c.notNull())
    .addColumn('transaction_type_icon', 'text', (c) => c.notNull())
    .addColumn('sub_type', 'text', (c) => c.notNull().check(sql`sub_type in ('DEBIT', 'CREDIT')`))
    .addColumn('status', 'integer', (c) => c.notNull().check(sql`status in (1, 2, 3)`))
    .addColumn('final_card_number', 'text')
    .addColumn('bearer_name', 'text')
    .addColumn('transaction_date', t.time, (c) => c.notNull())
    .addColumn('brl_amount_minor', t.money, (c) => c.notNull().check(sql`brl_amount_minor >= 0`))
    .addColumn('usd_amount_minor', t.money)
    .addColumn('usd_exchange_rate', t.real)
    .addColumn('usd_exchange_rate_date', t.time)
    .addColumn('total_amount_minor', t.money, (c) => c.notNull())
    .addColumn('iof_amount_minor', t.money, (c) => c.notNull().defaultTo(0))
    .addColumn('fee_service_amount_minor', t.money, (c) => c.notNull().defaultTo(0))
    .addColumn('mcc_code', 'integer')
    .addColumn('mcc_group', 'integer')
    .addColumn('mcc_description', 'text')
    .addColumn('id_purchase_event', 'integer')
    .addColumn('source_destination_name', 'text', (c) => c.notNull())
    .addColumn('place_establishment', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('conciled', 'integer', (c) => c.notNull().defaultTo(0).check(sql`conciled in (0, 1)`))
    .addColumn('conciled_at', t.time)
    .addColumn('category_code', 'text', (c) => c.notNull())
    .addColumn('category_description', 'text', (c) => c.notNull())
    .addColumn('custom_category_id', 'integer', (c) => c.references('categories.id').onDelete('set null'))
    .addColumn('cost_center_id', 'text', (c) => c.references('cost_centers.id').onDelete('set null'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('requester_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('has_attachments', 'integer', (c) => c.notNull().defaultTo(0).check(sql`has_attachments in (0, 1)`))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
  const bt = 'banking_transactions';
  // Sort orders (default transactionDate, brlAmount, totalTransactionAmount), ties by id. Each also
  // carries the other two keys: an amount-ordered page with a date range (or a BRL amount filter
  // under the total order) either walks an amount index checking the range inside it, or reads the
  // range from the date (BRL) index with the sort key in it — never the table (store/banking-plan.ts).
  await index(db, 'bt_company_date', bt, [
    'company_id',
    'transaction_date',
    'id',
    'brl_amount_minor',
    'total_amount_minor',
  ]);
  await index(db, 'bt_company_brl', bt, [
    'company_id',
    'brl_amount_minor',
    'id',
    'transaction_date',
    'total_amount_minor',
  ]);
  await index(db, 'bt_company_total', bt, [
    'company_id',
    'total_amount_minor',
    'id',
    'transaction_date',
    'brl_amount_minor',
  ]);
  // The rows whose total is below the BRL amount (none unless a negative fee is ingested): the total
  // order under a BRL-amount-above filter walks them apart from the others (store/banking-arms.ts).
  await db.schema
    .createIndex('bt_company_total_below_brl')
    .on(bt)
    .columns(['company_id', 'total_amount_minor', 'id', 'brl_amount_minor', 'transaction_date'])
    .where(sql.ref('total_amount_minor'), '<', sql.ref('brl_amount_minor'))
    .execute();
  // Amount orders under a filter (store/banking-arms.ts): a filter and an amount order share a B-tree
  // only when the filter leads it. One index per classification filter and amount; the flag filters
  // (has_attachments, conciled, status: 12 combinations) share one per amount, read as one arm per
  // combination. Classification ones are partial (column set), like the pair indexes below.
  for (const [suffix, amount] of [
    ['brl', 'brl_amount_minor'],
    ['total', 'total_amount_minor'],
  ] as const) {
    await index(db, `bt_flags_${suffix}`, bt, ['company_id', 'has_attachments', 'conciled', 'status', amount, 'id']);
    await index(db, `bt_account_${suffix}`, bt, ['account_id', amount, 'id']);
    for (const [name, column] of [
      ['user', 'user_id'],
      ['cost_center', 'cost_center_id'],
      ['category', 'custom_category_id'],
    ] as const) {
      await db.schema
        .createIndex(`bt_${name}_${suffix}`)
        .on(bt)
        .columns([column, amount, 'id'])
        .where(column, 'is not', null)
        .execute();
    }
  }
  // Filters: ids that are unique across companies lead on their own (they also serve foreign-key
  // checks). These indexes also carry every other filtered column, so when several filters combine,
  // the rows of the leading one are checked inside the index, without reading the table.
  const filtered = [
    'company_id',
    'account_id',
    'status',
    'conciled',
    'has_attachments',
    'brl_amount_minor',
    'custom_category_id',
    'cost_center_id',
    'user_id',
  ];
  const covering = (lead: string) => [lead, 'transaction_date', 'id', ...filtered.filter((c) => c !== lead)];
  await index(db, 'bt_account_date', bt, covering('account_id'));
  await index(db, 'bt_category_date', bt, covering('custom_category_id'));
  await index(db, 'bt_cost_center_date', bt, covering('cost_center_id'));
  await index(db, 'bt_user_date', bt, covering('user_id'));
  // Filter pairs: each single-filter range above is 2-10 % of a company (tens of thousands of entries
  // on a 1M-row statement), so a sparse combination (few rows match) would walk a whole range. An
  // index per pair of classification filters cuts that to the pair's intersection (~0.1-0.3 %).
  // Partial (both columns set): unclassified rows, most of the table, are left out.
  const pair = (first: string, second: string) => [
    first,
    second,
    'transaction_date',
    'id',
    ...filtered.filter((c) => c !== first && c !== second),
  ];
  for (const [name, first, second] of [
    ['bt_user_category_date', 'user_id', 'custom_category_id'],
    ['bt_user_cost_center_date', 'user_id', 'cost_center_id'],
    ['bt_cost_center_category_date', 'cost_center_id', 'custom_category_id'],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on(bt)
      .columns(pair(first, second))
      .where((eb) => eb.and([eb(first, 'is not', null), eb(second, 'is not', null)]))
      .execute();
  }
  await index(db, 'bt_requester', bt, ['requester_user_id']);
  await index(db, 'bt_company_status_date', bt, ['company_id', 'status', 'transaction_date', 'id']);
  await index(db, 'bt_company_conciled_date', bt, ['company_id', 'conciled', 'transaction_date', 'id']);
  await index(db, 'bt_company_attachments_date', bt, ['company_id', 'has_attachments', 'transaction_date', 'id']);

  await db.schema
    .createTable('bills')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('closing_date', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('total_minor', t.money, (c) => c.notNull().defaultTo(0))
    .addColumn('paid_at', t.time)
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('bills_pk', ['company_id', 'due_date'])
    .execute();

  await db.schema
    .createTable('credit_card_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('card_id', 'text', (c) => c.notNull())
    .addColumn('final_card_number', 'text', (c) => c.notNull())
    .addColumn('bearer_name', 'text', (c) => c.notNull())
    .addColumn('transaction_date', t.time, (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('merchant_name', 'text', (c) => c.notNull())
    .addColumn('mcc_code', 'integer', (c) => c.notNull())
    .addColumn('category_code', 'text', (c) => c.notNull())
    .addColumn('category_description', 'text', (c) => c.notNull())
    .addColumn('amount_minor', t.money, (c) => c.notNull().check(sql`amount_minor >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('brl_amount_minor', t.money, (c) => c.notNull().check(sql`brl_amount_minor >= 0`))
    .addColumn('exchange_rate', t.real)
    .addColumn('iof_amount_minor', t.money, (c) => c.notNull().defaultTo(0))
    .addColumn('installment_number', 'integer')
    .addColumn('installment_total', 'integer')
    .addColumn('status', 'integer', (c) => c.notNull().check(sql`status in (1, 2, 3)`))
    .addColumn('bill_due_date', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('conciled', 'integer', (c) => c.notNull().defaultTo(0).check(sql`conciled in (0, 1)`))
    .addColumn('conciled_at', t.time)
    .addColumn('custom_category_id', 'integer', (c) => c.references('categories.id').onDelete('set null'))
    .addColumn('cost_center_id', 'text', (c) => c.references('cost_centers.id').onDelete('set null'))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('has_attachments', 'integer', (c) => c.notNull().defaultTo(0).check(sql`has_attachments in (0, 1)`))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addForeignKeyConstraint('cct_bill', ['company_id', 'bill_due_date'], 'bills', ['company_id', 'due_date'])
    .execute();
  const cc = 'credit_card_transactions';
  await index(db, 'cct_company_date', cc, ['company_id', 'transaction_date', 'id']);
  await index(db, 'cct_company_card_date', cc, ['company_id', 'card_id', 'transaction_date', 'id']);
  await index(db, 'cct_company_bill_date', cc, ['company_id', 'bill_due_date', 'transaction_date', 'id']);
  await index(db, 'cct_category', cc, ['custom_category_id']);
  await index(db, 'cct_cost_center', cc, ['cost_center_id']);
  await index(db, 'cct_user', cc, ['user_id']);

  await db.schema
    .createTable('attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('banking_transaction_id', 'integer', (c) => c.references('banking_transactions.id'))
    .addColumn('credit_card_transaction_id', 'text', (c) => c.references('credit_card_transactions.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING', 'UPLOADED')`))
    .addColumn('size_bytes', 'integer')
    .addColumn('sha256', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('upload_expires_at', t.time, (c) => c.notNull())
    .addColumn('uploaded_at', t.time)
    .addCheckConstraint(
      'attachments_one_transaction',
      sql`(banking_transaction_id is null) <> (credit_card_transaction_id is null)`,
    )
    .execute();
  await index(db, 'attachments_banking', 'attachments', ['banking_transaction_id', 'created_at']);
  await index(db, 'attachments_credit_card', 'attachments', ['credit_card_transaction_id', 'created_at']);

  await db.schema
    .createTable('attachment_blobs')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('content', t.blob, (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
}
