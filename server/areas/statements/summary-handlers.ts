// GET /statements/v1/banking/summary: the banking list's filters (banking-query.ts, no paging) →
// the store's grouped sums (store/banking-summary.ts) → totals and labelled groups.
import { defineHandlers, type Input } from '../../kit/handler.js';
import { fromMinor } from '../../lib/money.js';
import { categoryNames, costCenterNames } from '../directory/public.js';
import { userIdsByEmail } from '../users/public.js';
import { bankingPageQuery } from './banking-query.js';
import { STATUS_NAMES } from './present.js';
import { bankingSummaryRows, type SummaryGroupBy, type SummaryRow } from './store/banking-summary.js';
import type { Db } from '../../db/database.js';
import { resolveSearch } from './store/search.js';

const sums = (count: number, inMinor: number, outMinor: number) => ({
  count,
  in: fromMinor(inMinor),
  out: fromMinor(outMinor),
  net: fromMinor(inMinor - outMinor),
});

const NONE = { category: 'No category', costCenter: 'No cost center', counterparty: 'No counterparty', status: '' };

/** What each group's key is called: the directory's names, the status names, the counterparty itself. */
async function labels(db: Db, companyId: string, groupBy: SummaryGroupBy, rows: SummaryRow[]) {
  const keys = rows.flatMap((row) => (row.key === null ? [] : [row.key]));
  if (groupBy === 'category') return categoryNames(db, companyId, keys.map(Number).filter(Number.isSafeInteger));
  if (groupBy === 'costCenter') return costCenterNames(db, companyId, keys);
  if (groupBy === 'status')
    return new Map(keys.map((key) => [key, STATUS_NAMES[Number(key) as keyof typeof STATUS_NAMES] ?? key]));
  return new Map(keys.map((key) => [key, key]));
}

export const summaryHandlers = defineHandlers({
  getBankingSummary: async ({ query }, { db, auth, config }) => {
    const { groupBy, ...filters } = query;
    const listQuery = filters as Input<'listBankingTransactions'>['query'];
    const { page, email, words } = bankingPageQuery(listQuery, { auth, config });
    if (words) page.filters.search = await resolveSearch(db, auth.companyId, words);
    if (email !== undefined) page.filters.userIds = await userIdsByEmail(db, auth.companyId, email);
    const empty = email !== undefined && page.filters.userIds?.length === 0;
    const rows = empty ? [] : await bankingSummaryRows(db, page, groupBy);
    const total = rows.reduce(
      (sum, row) => ({
        count: sum.count + row.count,
        inMinor: sum.inMinor + row.inMinor,
        outMinor: sum.outMinor + row.outMinor,
      }),
      { count: 0, inMinor: 0, outMinor: 0 },
    );
    const names = groupBy === undefined ? new Map<string, string>() : await labels(db, auth.companyId, groupBy, rows);
    const groups =
      groupBy === undefined
        ? []
        : rows
            .filter((row) => row.count > 0)
            .sort((a, b) => b.count - a.count || (a.key ?? '').localeCompare(b.key ?? ''))
            .map((row) => ({
              key: row.key,
              label: row.key === null ? NONE[groupBy] : (names.get(row.key) ?? row.key),
              ...sums(row.count, row.inMinor, row.outMinor),
            }));
    return { status: 200, body: { total: sums(total.count, total.inMinor, total.outMinor), groups } };
  },
});
