// GET /statements/v1/banking/summary and /credit-card/summary: the list's filters (no paging) → the
// store's grouped sums (store/banking-summary.ts, store/credit-card-summary.ts) → totals and labelled groups.
import { defineHandlers, type Input } from '../../kit/handler.js';
import { fromMinor } from '../../lib/money.js';
import { categoryNames, costCenterNames } from '../directory/public.js';
import { userIdsByEmail } from '../users/public.js';
import { bankingPageQuery } from './banking-query.js';
import { STATUS_NAMES } from './present.js';
import { bankingSummaryRows, type SummaryGroupBy, type SummaryRow } from './store/banking-summary.js';
import type { Db } from '../../db/database.js';
import { resolveSearch } from './store/search.js';
import { creditCardSummaryRows, type CardSummaryGroupBy } from './store/credit-card-summary.js';
import { cardsById } from './cards/store.js';
import { foldPeriods, isPeriod } from './store/summary-periods.js';
import { creditCardQuery } from './credit-card-query.js';

const sums = (count: number, inMinor: number, outMinor: number) => ({
  count,
  in: fromMinor(inMinor),
  out: fromMinor(outMinor),
  net: fromMinor(inMinor - outMinor),
});

const NONE = {
  day: '',
  month: '',
  category: 'No category',
  platformCategory: 'No platform category',
  costCenter: 'No cost center',
  counterparty: 'No counterparty',
  merchant: 'No merchant',
  card: 'No card',
  status: '',
};
type GroupBy = SummaryGroupBy | CardSummaryGroupBy;

/**
 * What each group's key is called: the directory's and the cards' names, the status names, the
 * counterparty or merchant itself (a platform category's description comes with its rows).
 */
async function labels(db: Db, companyId: string, groupBy: GroupBy, rows: SummaryRow[]) {
  const keys = rows.flatMap((row) => (row.key === null ? [] : [row.key]));
  if (groupBy === 'day' || groupBy === 'month') return new Map(keys.map((key) => [key, key]));
  if (groupBy === 'card')
    return new Map([...(await cardsById(db, companyId, keys))].map(([id, card]) => [id, card.name]));
  if (groupBy === 'category') return categoryNames(db, companyId, keys.map(Number).filter(Number.isSafeInteger));
  if (groupBy === 'costCenter') return costCenterNames(db, companyId, keys);
  if (groupBy === 'status')
    return new Map(keys.map((key) => [key, STATUS_NAMES[Number(key) as keyof typeof STATUS_NAMES] ?? key]));
  return new Map(keys.map((key) => [key, key]));
}

/**
 * The totals and labelled groups of a summary's rows (a period's quarter-hours folded into the
 * company's days or months, which come in calendar order).
 */
async function summaryOf(
  db: Db,
  companyId: string,
  groupBy: GroupBy | undefined,
  timeZone: string,
  stored: SummaryRow[],
) {
  const period = isPeriod(groupBy) ? groupBy : undefined;
  const rows = period ? foldPeriods(stored, period, timeZone) : stored;
  const total = rows.reduce(
    (sum, row) => ({
      count: sum.count + row.count,
      inMinor: sum.inMinor + row.inMinor,
      outMinor: sum.outMinor + row.outMinor,
    }),
    { count: 0, inMinor: 0, outMinor: 0 },
  );
  const names = groupBy === undefined ? new Map<string, string>() : await labels(db, companyId, groupBy, rows);
  const groups =
    groupBy === undefined
      ? []
      : rows
          .filter((row) => row.count > 0)
          .sort((a, b) =>
            period
              ? (a.key ?? '').localeCompare(b.key ?? '')
              : b.count - a.count || (a.key ?? '').localeCompare(b.key ?? ''),
          )
          .map((row) => ({
            key: row.key,
            label: row.key === null ? NONE[groupBy] : (row.label ?? names.get(row.key) ?? row.key),
            ...sums(row.count, row.inMinor, row.outMinor),
          }));
  return { total: sums(total.count, total.inMinor, total.outMinor), groups };
}

export const summaryHandlers = defineHandlers({
  getBankingSummary: async ({ query }, { db, auth, config, index }) => {
    const { groupBy, ...filters } = query;
    const listQuery = filters as Input<'listBankingTransactions'>['query'];
    const { page, email, words } = bankingPageQuery(listQuery, { auth, config, index });
    if (words) page.filters.search = await resolveSearch(db, auth.companyId, words);
    if (email !== undefined) page.filters.userIds = await userIdsByEmail(db, auth.companyId, email);
    const empty = email !== undefined && page.filters.userIds?.length === 0;
    const rows = empty ? [] : await bankingSummaryRows(db, page, groupBy);
    return { status: 200, body: await summaryOf(db, auth.companyId, groupBy, auth.timeZone, rows) };
  },

  getCreditCardSummary: async ({ query }, { db, auth }) => {
    const { groupBy, ...filters } = query;
    const { query: records, words } = creditCardQuery(filters, auth.companyId, auth.timeZone);
    const search = words ? await resolveSearch(db, auth.companyId, words) : undefined;
    const rows = await creditCardSummaryRows(db, { ...records, ...(search ? { search } : {}) }, groupBy);
    return { status: 200, body: await summaryOf(db, auth.companyId, groupBy, auth.timeZone, rows) };
  },
});
