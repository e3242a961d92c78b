// The banking statement page: keyset paging (DESIGN §5) over the index that serves the filters.
// A row-value comparison `(sort, id) < (?, ?)` bounds the index range, so a page deep in the
// statement reads what the first page reads. A list filter with several values (status, categories,
// cost centers, users) is answered as one ordered arm per value, merged by a UNION ALL: each arm
// walks its own index range in order and stops after `take` rows, where a single IN would have to
// collect and sort every matching row. Each arm keeps its classification filters as equalities, so
// a sparse combination (user, cost center, category) is walked on the pair index of two of them
// (migration 0004) instead of the whole range of one.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../../db/database.js';
import type { Database } from '../../../db/schema.js';

export type BankingSortField = 'transactionDate' | 'brlAmount' | 'totalTransactionAmount';
export type SortDirection = 'asc' | 'desc';

export const SORT_COLUMNS = {
  transactionDate: 'transaction_date',
  brlAmount: 'brl_amount_minor',
  totalTransactionAmount: 'total_amount_minor',
} as const;

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
}

type Eb = ExpressionBuilder<Database, 'banking_transactions'>;
type ListColumn = 'status' | 'custom_category_id' | 'cost_center_id' | 'user_id';
type Split = { column: ListColumn; value: string | number };

/** List filters in the order they are split into arms: the likely most selective first. */
function listFilters(f: BankingFilters): Array<{ column: ListColumn; values: Array<string | number> }> {
  const lists: Array<{ column: ListColumn; values?: Array<string | number> }> = [
    { column: 'user_id', values: f.userIds },
    { column: 'cost_center_id', values: f.costCenterIds },
    { column: 'custom_category_id', values: f.categoryIds },
    { column: 'status', values: f.status },
  ];
  return lists.filter((l): l is { column: ListColumn; values: Array<string | number> } => l.values !== undefined);
}

function arm(db: Db, q: BankingPageQuery, split: Split | undefined) {
  const column = SORT_COLUMNS[q.sort.field];
  const f = q.filters;
  let query = db
    .selectFrom('banking_transactions')
    .select(['id', `${column} as sort_key`])
    .where('company_id', '=', q.companyId);
  if (f.accountId !== undefined) query = query.where('account_id', '=', f.accountId);
  if (f.from !== undefined) query = query.where('transaction_date', '>=', f.from);
  if (f.to !== undefined) query = query.where('transaction_date', '<', f.to);
  if (f.hasAttachments !== undefined) query = query.where('has_attachments', '=', f.hasAttachments ? 1 : 0);
  if (f.wasConciled !== undefined) query = query.where('conciled', '=', f.wasConciled ? 1 : 0);
  if (f.amount) {
    // A range on the amount matches many rows: under date order, keep the date index driving (the
    // `+ 0` makes the amount unusable as an index bound) instead of collecting and sorting them all.
    const ranged = f.amount.op !== '=' && q.sort.field === 'transactionDate';
    query = ranged
      ? query.where(sql<number>`${sql.ref('brl_amount_minor')} + 0`, f.amount.op, f.amount.minor)
      : query.where('brl_amount_minor', f.amount.op, f.amount.minor);
  }
  for (const list of listFilters(f)) {
    if (split?.column === list.column) query = query.where(list.column, '=', split.value as never);
    else if (list.values.length === 1) query = query.where(list.column, '=', list.values[0] as never);
    else query = query.where(list.column, 'in', list.values as never);
  }
  if (q.after) {
    const [key, id] = q.after;
    const op = q.sort.direction === 'desc' ? '<' : '>';
    query = query.where((eb: Eb) => eb(eb.refTuple(column, 'id'), op, eb.tuple(key as never, id)));
  }
  return query.orderBy(column, q.sort.direction).orderBy('id', q.sort.direction).limit(q.take);
}

/** The ids (and sort keys) of one page, in order. */
export function pageIdsQuery(db: Db, q: BankingPageQuery): SelectQueryBuilder<Database, never, { id: number; sort_key: string | number }> {
  // Arms only help when the arm's index also yields the sort order (transaction date).
  const splittable = q.sort.field === 'transactionDate' ? listFilters(q.filters).find((l) => l.values.length > 1) : undefined;
  if (!splittable) {
    return db.selectFrom(arm(db, q, undefined).as('page')).selectAll() as never;
  }
  const [first, ...rest] = splittable.values.map((value, i) =>
    db.selectFrom(arm(db, q, { column: splittable.column, value }).as(`arm${i}`)).selectAll(),
  );
  let union = first!;
  for (const next of rest) union = union.unionAll(next);
  return union.orderBy('sort_key', q.sort.direction).orderBy('id', q.sort.direction).limit(q.take) as never;
}
