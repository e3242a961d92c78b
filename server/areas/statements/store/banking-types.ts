// The banking page query: filters, sorting and keyset position, as the handler hands it to the store.

export type BankingSortField = 'transactionDate' | 'brlAmount' | 'totalTransactionAmount';
export type SortDirection = 'asc' | 'desc';

export interface BankingFilters {
  accountId?: number;
  /** UTC ISO instants: from inclusive, to exclusive. */
  from?: string;
  to?: string;
  hasAttachments?: boolean;
  wasConciled?: boolean;
  categoryIds?: number[];
  costCenterIds?: string[];
  /** The users whose email is `responsibleEmail`. */
  userIds?: string[];
  status?: number[];
  amount?: { op: '=' | '>' | '<'; minor: number };
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
