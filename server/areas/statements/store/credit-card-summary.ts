// The credit-card statement summed: the records the list pages for the same filters
// (credit-card-page.ts's `cardRecordsFiltered`, the cards as one IN), counted with money out
// (positive BRL amounts: purchases) and in (negative ones: credits) in minor units, optionally
// grouped by one column. Integer sums: exact to the cent.
import { sql } from 'kysely';
import type { Db } from '../../../db/database.js';
import { cardRecordsFiltered, type CreditCardPageQuery } from './credit-card-page.js';
import type { SummaryRow } from './banking-summary.js';

export const CARD_SUMMARY_GROUPS = {
  category: 'custom_category_id',
  costCenter: 'cost_center_id',
  merchant: 'merchant_name',
  card: 'card_id',
  status: 'status',
} as const;
export type CardSummaryGroupBy = keyof typeof CARD_SUMMARY_GROUPS;

/** One row per group (one row in all without `groupBy`). */
export async function creditCardSummaryRows(
  db: Db,
  q: Omit<CreditCardPageQuery, 'after' | 'take'>,
  groupBy: CardSummaryGroupBy | undefined,
): Promise<SummaryRow[]> {
  let base = cardRecordsFiltered(db, q);
  if (q.cardIds !== undefined) base = base.where('card_id', 'in', q.cardIds);
  const sums = base.select([
    sql<number | string>`count(*)`.as('count'),
    sql<number | string | null>`sum(case when brl_amount_minor < 0 then -brl_amount_minor else 0 end)`.as('in_minor'),
    sql<number | string | null>`sum(case when brl_amount_minor > 0 then brl_amount_minor else 0 end)`.as('out_minor'),
  ]);
  const column = groupBy === undefined ? undefined : CARD_SUMMARY_GROUPS[groupBy];
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
