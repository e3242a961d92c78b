// The banking statement summed: the rows the list pages for the same filters (banking-list.ts's
// `filtered`, one arm without fixed columns), counted with money in (CREDIT) and out (DEBIT) as their
// total amount in minor units, optionally grouped by one column. Integer sums: exact to the cent.
import { sql } from 'kysely';
import type { Db } from '../../../db/database.js';
import { filtered } from './banking-list.js';
import type { BankingPageQuery } from './banking-types.js';

export const SUMMARY_GROUPS = {
  category: 'custom_category_id',
  costCenter: 'cost_center_id',
  counterparty: 'source_destination_name',
  status: 'status',
} as const;
export type SummaryGroupBy = keyof typeof SUMMARY_GROUPS;

export interface SummaryRow {
  key: string | null;
  count: number;
  inMinor: number;
  outMinor: number;
}

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
  const column = groupBy === undefined ? undefined : SUMMARY_GROUPS[groupBy];
  const rows =
    column === undefined
      ? (await sums.execute()).map((row) => ({ ...row, key: null }))
      : await sums
          .select(sql<string | number | null>`${sql.ref(column)}`.as('key'))
          .groupBy(column)
          .execute();
  return rows.map((row) => ({
    key: row.key === null ? null : String(row.key),
    count: Number(row.count),
    inMinor: Number(row.in_minor ?? 0),
    outMinor: Number(row.out_minor ?? 0),
  }));
}
