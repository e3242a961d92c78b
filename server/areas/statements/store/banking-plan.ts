// The plan of an amount-ordered banking page whose only filters are ranges (banking-arms.ts): with
// few rows in the range, collect and sort them (cost ∝ rows in range); with many, walk the amount
// index checking the range per entry (cost ∝ take × company rows / rows in range). The two meet near
// sqrt(take × company rows); a count of the range's rows, stopped at RANGE_ROWS, picks the cheaper.
import { sql } from 'kysely';
import type { Db } from '../../../db/database.js';
import { filtered } from './banking-list.js';
import type { BankingPageQuery } from './banking-types.js';
import { rangeOnly } from './banking-arms.js';

/** Rows in a range above which walking the amount index beats sorting the range. */
const RANGE_ROWS = 2_000;

/** Sets `rangePlan` where it matters; a plan the caller already chose (tests, benchmarks) is kept. */
export async function planBankingPage(db: Db, q: BankingPageQuery): Promise<BankingPageQuery> {
  if (q.rangePlan !== undefined || !rangeOnly(q)) return q;
  const inRange = filtered(db, db.selectFrom('banking_transactions').select(sql<number>`1`.as('one')), q, {
    fixed: {},
    unindexed: { date: false, amount: false },
  }).limit(RANGE_ROWS);
  const { n } = await db
    .selectFrom(inRange.as('r'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { ...q, rangePlan: Number(n) < RANGE_ROWS ? 'sort' : 'walk' };
}
