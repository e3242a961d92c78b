// GET /statements/v1/banking: the validated query → the store's page query, enforcing the rules the
// schema cannot express (date pair, amount exclusivity) and binding the cursor to the filters.
import type { HandlerContext, Input } from '../../kit/handler.js';
import { badRequest } from '../../kit/errors.js';
import { paging } from '../../kit/paging.js';
import { toMinor } from '../../lib/money.js';
import type { BankingFilters, BankingPageQuery, BankingSortField, SortDirection } from './store/banking-types.js';
import { FILTERS, type ColumnFilters } from './store/banking-filters.js';
import { addDays, startOfDay } from '../../lib/time.js';
import { searchWords } from './store/search.js';
import { erpFilters } from './store/erp-filters.js';

type Query = Input<'listBankingTransactions'>['query'];

const SORTING = /^(transactionDate|brlAmount|totalTransactionAmount):(asc|desc)$/;

function parseSorting(value: string | undefined): { field: BankingSortField; direction: SortDirection } {
  const match = SORTING.exec(value ?? 'transactionDate:desc');
  if (!match) {
    throw badRequest('sorting must be transactionDate, brlAmount or totalTransactionAmount followed by :asc or :desc');
  }
  return { field: match[1] as BankingSortField, direction: match[2] as SortDirection };
}

/** The calendar-day pair as a UTC [from, to) range; both or neither. */
// No transaction lies outside these days; clamping keeps the day arithmetic within 4-digit years
// (`9999-12-31` + 1 day has none, and years below 100 are not what Date.UTC reads).
const clampDay = (date: string) => (date < '1000-01-01' ? '1000-01-01' : date > '9998-12-31' ? '9998-12-31' : date);

export function dateRange(startDate: string | undefined, endDate: string | undefined, timeZone: string) {
  if ((startDate === undefined) !== (endDate === undefined)) {
    const [sent, missing] = startDate === undefined ? ['endDate', 'startDate'] : ['startDate', 'endDate'];
    throw badRequest(`${missing} is required with ${sent}: send both or neither`, undefined, {
      reason: 'missing_parameter',
      param: missing,
    });
  }
  if (startDate === undefined || endDate === undefined) return {};
  if (endDate < startDate)
    throw badRequest('endDate must not be before startDate', undefined, { reason: 'invalid_value', param: 'endDate' });
  return { from: startOfDay(clampDay(startDate), timeZone), to: startOfDay(addDays(clampDay(endDate), 1), timeZone) };
}

function amountFilter(q: Query): BankingFilters['amount'] {
  const given = (['amountEq', 'amountGt', 'amountLt'] as const).filter((k) => q[k] !== undefined);
  if (given.length > 1)
    throw badRequest(`amountEq, amountGt and amountLt are mutually exclusive; got ${given.join(', ')}`);
  if (q.amountEq !== undefined) return { op: '=', minor: toMinor(q.amountEq) };
  if (q.amountGt !== undefined) return { op: '>', minor: toMinor(q.amountGt) };
  if (q.amountLt !== undefined) return { op: '<', minor: toMinor(q.amountLt) };
  return undefined;
}

const sortedUnique = <T extends string | number>(values: T[]) =>
  [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The column filters the query gives (store/banking-filters.ts), lists without repeats and in order. */
function columnFilters(q: Query): ColumnFilters {
  const out: Record<string, unknown> = {};
  for (const [name, filter] of FILTERS) {
    if (filter.param === undefined) continue;
    const value = (q as Record<string, unknown>)[filter.param];
    if (value === undefined) continue;
    if (filter.kind !== 'list') out[name] = value;
    else {
      const values = value as Array<string | number>;
      out[name] = sortedUnique(filter.caseInsensitive ? values.map((v) => String(v).toLowerCase()) : values);
    }
  }
  return out as ColumnFilters;
}

/**
 * The page query (without user ids and search: the handler resolves `responsibleEmail` and the
 * words of `q` against the company's names) and its paging, bound
 * to every filter and the sorting, normalized so equal queries give equal scopes.
 */
export function bankingPageQuery(q: Query, ctx: Pick<HandlerContext, 'auth' | 'config' | 'index'>) {
  const { companyId, timeZone } = ctx.auth;
  const sort = parseSorting(q.sorting);
  const filters: BankingFilters = {
    ...columnFilters(q),
    ...dateRange(q.startDate, q.endDate, timeZone),
    amount: amountFilter(q),
    erp: erpFilters(q),
  };
  const email = q.responsibleEmail?.trim().toLowerCase();
  const words = q.q === undefined ? undefined : searchWords(q.q);
  const { from: _from, to: _to, ...rest } = filters;
  const scope = { ...rest, startDate: q.startDate, endDate: q.endDate, email, sort, ...(words ? { words } : {}) };
  const pages = paging('listBankingTransactions', ctx, q, scope, [
    sort.field === 'transactionDate' ? 'string' : 'number',
    'number',
  ]);
  const page: BankingPageQuery = { companyId, filters, sort, after: pages.after, take: pages.limit };
  return { page, paging: pages, email, words };
}
