// The summaries' `day` and `month` groups: the store groups by UTC quarter-hour (dialect.ts's
// `utcQuarterHour`), and the quarter-hours are folded here into the company's calendar days or months.
import { localDate } from '../../../lib/time.js';

/** One group of a summary as the store reads it: its key and its count and sums in minor units. */
export interface SummaryRow {
  key: string | null;
  count: number;
  inMinor: number;
  outMinor: number;
  /** What to show for the group when the rows carry it themselves (a platform category's description). */
  label?: string;
}

export const PERIODS = ['day', 'month'] as const;
export type Period = (typeof PERIODS)[number];

export const isPeriod = (groupBy: string | undefined): groupBy is Period =>
  (PERIODS as readonly string[]).includes(groupBy ?? '');

/** Rows keyed by UTC quarter-hour → rows keyed by the company's day (`YYYY-MM-DD`) or month (`YYYY-MM`). */
export function foldPeriods(rows: SummaryRow[], period: Period, timeZone: string): SummaryRow[] {
  const folded = new Map<string, SummaryRow>();
  for (const row of rows) {
    if (row.key === null) continue;
    const [hour, minute] = row.key.split(':');
    const day = localDate(`${hour}:${String(minute).padStart(2, '0')}:00.000Z`, timeZone);
    const key = period === 'day' ? day : day.slice(0, 7);
    const sum = folded.get(key) ?? { key, count: 0, inMinor: 0, outMinor: 0 };
    sum.count += row.count;
    sum.inMinor += row.inMinor;
    sum.outMinor += row.outMinor;
    folded.set(key, sum);
  }
  return [...folded.values()];
}
