// The banking rows whose total is above the BRL amount (fees or IOF). The total order under a
// BRL-amount-below-X filter reads from here the rows whose fees lift the total to X or more
// (store/banking-arms.ts): by BRL amount, from X minus the company's largest total − BRL amount
// (the second index, read backwards for one entry) up to X. The other matching rows have a total
// below X and are walked from there on the total index.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const bt = 'banking_transactions';
  const feeRows = [sql.ref('brl_amount_minor'), '<', sql.ref('total_amount_minor')] as const;
  await db.schema
    .createIndex('bt_company_brl_below_total')
    .on(bt)
    .columns(['company_id', 'brl_amount_minor', 'id', 'total_amount_minor', 'transaction_date'])
    .where(...feeRows)
    .execute();
  await db.schema
    .createIndex('bt_company_total_over_brl')
    .on(bt)
    .column('company_id')
    .expression(sql`(${sql.ref('total_amount_minor')} - ${sql.ref('brl_amount_minor')})`)
    .where(...feeRows)
    .execute();
}
