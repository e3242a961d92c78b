// The banking rows whose total is above the BRL amount (fees or IOF), by BRL amount. The total order
// under a BRL-amount-below-X filter reads from here the rows whose fees lift the total to X or more
// (store/banking-arms.ts); the other matching rows have a total below X and are walked from there.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('bt_company_brl_below_total').on('banking_transactions')
    .columns(['company_id', 'brl_amount_minor', 'id', 'total_amount_minor', 'transaction_date'])
    .where(sql.ref('brl_amount_minor'), '<', sql.ref('total_amount_minor')).execute();
}
