// The banking page query: filters, sorting and keyset position, as the handler hands it to the store.
import type { ColumnFilters } from './banking-filters.js';
import type { SearchWord } from './search.js';
import type { ErpFilters } from './erp-filters.js';

export type BankingSortField = 'transactionDate' | 'brlAmount' | 'totalTransactionAmount';
export type SortDirection = 'asc' | 'desc';

/** The column filters of banking-filters.ts (`userIds`: the users whose email is `responsibleEmail`) and the ranges. */
export interface BankingFilters extends ColumnFilters {
  /** UTC ISO instants: from inclusive, to exclusive. */
  from?: string;
  to?: string;
  amount?: { op: '=' | '>' | '<'; minor: number };
  /** `q`: every word found in the row (store/search.ts). */
  search?: SearchWord[];
  /** `metadata[key]` and `syncStatus` (erp-filters.ts). */
  erp?: ErpFilters;
}

export interface BankingPageQuery {
  companyId: string;
  filters: BankingFilters;
  sort: { field: BankingSortField; direction: SortDirection };
  /** The sort key of the last row of the previous page. */
  after?: [string | number, number];
  take: number;
  /**
   * Under an amount order with only range filters (dates; the BRL amount under the total order):
   * walk the amount index checking each row ('walk') or collect the range and sort it ('sort').
   * Set by planBankingPage (banking-plan.ts) from a bounded count; 'walk' when absent.
   */
  rangePlan?: 'walk' | 'sort';
}
