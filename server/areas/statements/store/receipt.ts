// What a receipt shows about a banking transaction: the row, its account and its company.
import type { Db } from '../../../db/database.js';
import { companyNameAndZone } from '../../auth/public.js';

/** The company's banking transaction with its account and the company's name and time zone, or undefined. */
export async function findReceiptData(db: Db, companyId: string, id: number) {
  const row = await db
    .selectFrom('banking_transactions as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select([
      't.id',
      't.company_id',
      't.status',
      't.transaction_date',
      't.transaction_type_description',
      't.sub_type',
      't.description',
      't.source_destination_name',
      't.final_card_number',
      't.bearer_name',
      't.place_establishment',
      't.brl_amount_minor',
      't.usd_amount_minor',
      't.usd_exchange_rate',
      't.iof_amount_minor',
      't.fee_service_amount_minor',
      't.total_amount_minor',
      'a.name as account_name',
      'a.bank_code',
      'a.bank_name',
      'a.branch',
      'a.number as account_number',
    ])
    .where('t.company_id', '=', companyId)
    .where('t.id', '=', id)
    .executeTakeFirst();
  const company = row && (await companyNameAndZone(db, companyId));
  return row && company && { ...row, company_name: company.name, time_zone: company.timeZone };
}

export type ReceiptData = NonNullable<Awaited<ReturnType<typeof findReceiptData>>>;

/** The status of a company's banking transaction, or undefined when it has none. */
export async function bankingStatus(db: Db, companyId: string, id: number) {
  const row = await db
    .selectFrom('banking_transactions')
    .select('status')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.status;
}
