// PostgreSQL's ordered indexes a search's page walks carry the search signature too (as SQLite's have
// since 0032): a walk there is an ordered subquery bounded to a number of entries (dialect.ts
// `searchWalk`), and with the signature in the index it reads only the index, not each row, to tell
// which entries may match (the rows' text is read for those alone). The same names as SQLite's.
import type { Kysely } from 'kysely';
import { storeKind } from '../dialect.js';

const SIGNATURE_COLUMNS = ['search_sig_lo', 'search_sig_hi'] as const;

/** The ordered indexes a search's page walks, rebuilt with the signature at their end (as `<name>_sig`). */
const WALKED = [
  [
    'bt_company_date',
    'banking_transactions',
    ['company_id', 'transaction_date', 'id', 'brl_amount_minor', 'total_amount_minor'],
  ],
  ['bt_company_status_date', 'banking_transactions', ['company_id', 'status', 'transaction_date', 'id']],
  ['bt_company_conciled_date', 'banking_transactions', ['company_id', 'conciled', 'transaction_date', 'id']],
  ['cct_company_date', 'credit_card_transactions', ['company_id', 'transaction_date', 'id']],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (storeKind(db) !== 'postgres') return;
  for (const [name, table, columns] of WALKED) {
    await db.schema
      .createIndex(`${name}_sig`)
      .on(table)
      .columns([...columns, ...SIGNATURE_COLUMNS])
      .execute();
    await db.schema.dropIndex(name).execute();
  }
}
