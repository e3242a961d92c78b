// The credit-card statement's filters as the list, its summary, its export and `finance export`
// take them: the validated query → the store's query (store/credit-card-page.ts) and the scope a
// list's cursor is bound to. Lists without repeats and in order, so equal queries give equal scopes.
import type { Input } from '../../kit/handler.js';
import { dateRange } from './banking-query.js';
import type { CreditCardType } from './card-types.js';
import { CARD_FILTERS, type CardColumnFilters } from './store/credit-card-filters.js';
import type { CreditCardPageQuery } from './store/credit-card-page.js';
import { searchWords } from './store/search.js';
import { erpFilters } from './store/erp-filters.js';

/** The filters every credit-card statement operation takes (the list adds paging, the summary `groupBy`). */
type CreditCardFilterQuery = Pick<
  Input<'listCreditCardTransactions'>['query'],
  'cardIds' | 'types' | 'startDate' | 'endDate' | 'q' | 'metadata' | 'syncStatus' | keyof CardColumnFilters
>;

const sortedUnique = <T extends string | number>(values: readonly T[]) =>
  [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The column filters (store/credit-card-filters.ts) the query gives; the others are left out. */
function columnFilters(q: CreditCardFilterQuery): CardColumnFilters {
  const out: Record<string, unknown> = {};
  for (const [name, filter] of CARD_FILTERS) {
    const value = q[name];
    if (value === undefined) continue;
    if (filter.kind === 'flag') out[name] = value;
    else {
      const values = value as Array<string | number>;
      out[name] = sortedUnique(filter.caseInsensitive ? values.map((v) => String(v).toLowerCase()) : values);
    }
  }
  return out as CardColumnFilters;
}

/**
 * The store's query of `q` but the search (its `words`, which the caller resolves against the
 * company's names) and paging, and the scope a cursor of the list is bound to. A filter not given
 * is absent from the scope, so a cursor issued before a filter existed stays valid.
 */
export function creditCardQuery(q: CreditCardFilterQuery, companyId: string, timeZone: string) {
  const cardIds = q.cardIds ? sortedUnique(q.cardIds.map((id) => id.toLowerCase())) : undefined;
  const types: CreditCardType[] | undefined = q.types ? sortedUnique(q.types) : undefined;
  const columns = columnFilters(q);
  const words = q.q === undefined ? undefined : searchWords(q.q);
  const erp = erpFilters(q);
  const query: Omit<CreditCardPageQuery, 'after' | 'take'> = {
    companyId,
    ...(cardIds ? { cardIds } : {}),
    ...(types ? { types } : {}),
    ...columns,
    ...(erp ? { erp } : {}),
    ...dateRange(q.startDate, q.endDate, timeZone),
  };
  const scope = {
    cardIds,
    startDate: q.startDate,
    endDate: q.endDate,
    ...(types ? { types } : {}),
    ...(words ? { words } : {}),
    ...columns,
    ...(erp ? { erp } : {}),
  };
  return { query, scope, words };
}
