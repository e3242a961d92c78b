// The banking statement summed: the rows the list pages for the same filters (banking-list.ts's
// `filtered`, one arm without fixed columns), counted with money in (CREDIT) and out (DEBIT) as their
// total amount in minor units, optionally grouped by one column. Integer sums: exact to the cent.
import { sql } from 'kysely';
import type { Db } from '../../../db/database.js';
import { filtered } from './banking-list.js';
import type { BankingPageQuery } from './banking-types.js';
import { utcQuarterHour } from '../../../db/dialect.js';
import { isPeriod, type Period, type SummaryRow } from './summary-periods.js';

export const SUMMARY_GROUPS = {
  category: 'custom_category_id',
  costCenter: 'cost_center_id',
  counterparty: 'source_destination_name',
  status: 'status',
} as const;
/** A column, or a period: rows grouped by UTC quarter-hour, folded into days or months (summary-periods.ts). */
export type SummaryGroupBy = keyof typeof SUMMARY_GROUPS | Period;

export type { SummaryRow } from './summary-periods.js';

/** One row per group (one row in all without `groupBy`). */
export async function bankingSummaryRows(
  db: Db,
  query: Pick<BankingPageQuery, 'companyId' | 'filters'>,
  groupBy: SummaryGroupBy | undefined,
): Promise<SummaryRow[]> {
  const page: BankingPageQuery = { ...query, sort: { field: 'transactionDate', direction: 'desc' }, take: 0 };
  const base = filtered(db, db.selectFrom('banking_transactions'), page, {
    fixed: {},
    unindexed: { date: false, amount: false },
  });
  const sums = base.select([
    sql<number | string>`count(*)`.as('count'),
    sql<number | string | null>`sum(case when sub_type = 'CREDIT' then total_amount_minor else 0 end)`.as('in_minor'),
    sql<number | string | null>`sum(case when sub_type = 'DEBIT' then total_amount_minor else 0 end)`.as('out_minor'),
  ]);
  const key =
    groupBy === undefined
      ? undefined
      : isPeriod(groupBy)
        ? utcQuarterHour(db, 'transaction_date')
        : sql<string | number | null>`${sql.ref(SUMMARY_GROUPS[groupBy])}`;
  const rows =
    key === undefined
      ? (await sums.execute()).map((row) => ({ ...row, key: null }))
      : await sums.select(key.as('key')).groupBy(key).execute();
  return rows.map((row) => ({
    key: row.key === null ? null : String(row.key),
    count: Number(row.count),
    inMinor: Number(row.in_minor ?? 0),
    outMinor: Number(row.out_minor ?? 0),
  }));
}
