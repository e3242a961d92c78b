// The credit-card statement summed: the records the list pages for the same filters
// (credit-card-page.ts's `cardRecordsFiltered`, the cards as one IN), counted with money out
// (positive BRL amounts: purchases) and in (negative ones: credits) in minor units, optionally
// grouped by one column. Integer sums: exact to the cent.
import { sql } from 'kysely';
import type { Db } from '../../../db/database.js';
import { cardRecordsFiltered, type CreditCardPageQuery } from './credit-card-page.js';
import type { SummaryRow } from './banking-summary.js';
import { utcQuarterHour } from '../../../db/dialect.js';
import { isPeriod, type Period } from './summary-periods.js';

export const CARD_SUMMARY_GROUPS = {
  category: 'custom_category_id',
  platformCategory: 'category_code',
  costCenter: 'cost_center_id',
  merchant: 'merchant_name',
  card: 'card_id',
  status: 'status',
} as const;
/** A column, or a period: rows grouped by UTC quarter-hour, folded into days or months (summary-periods.ts). */
export type CardSummaryGroupBy = keyof typeof CARD_SUMMARY_GROUPS | Period;

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
  const key =
    groupBy === undefined
      ? undefined
      : isPeriod(groupBy)
        ? utcQuarterHour(db, 'transaction_date')
        : sql<string | number | null>`${sql.ref(CARD_SUMMARY_GROUPS[groupBy])}`;
  const rows =
    key === undefined
      ? (await sums.execute()).map((row) => ({ ...row, key: null }))
      : await sums
          .select(key.as('key'))
          // A platform category is shown by its description, the same on each of its records
          // (max() picks one should the platform ever rename it).
          .$if(groupBy === 'platformCategory', (qb) =>
            qb.select(sql<string>`max(${sql.ref('category_description')})`.as('label')),
          )
          .groupBy(key)
          .execute();
  return rows.map((row) => ({
    key: row.key === null ? null : String(row.key),
    count: Number(row.count),
    inMinor: Number(row.in_minor ?? 0),
    outMinor: Number(row.out_minor ?? 0),
    ...('label' in row && row.label !== undefined ? { label: row.label } : {}),
  }));
}
