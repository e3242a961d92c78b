// The banking list's filters that compare a column with values, each declared once: the column, the
// kind of comparison, the query parameter that gives it and the indexes that can serve it. The
// store's three layers read this table and call only down: the plan of a page (which arms it is
// merged from: banking-arms.ts), its SQL (banking-list.ts) and its prepared shapes and loading
// (banking-page.ts); the handler's query (banking-query.ts) reads the parameters from it. A new filter
// of this sort is one entry here plus its test. The ranges (dates, amount) and the order have plans
// of their own (banking-arms.ts, banking-plan.ts) and are typed in banking-types.ts.

/**
 * - `equal`: one value (`= ?`);
 * - `flag`: a boolean, stored 0 or 1;
 * - `list`: any of several values (`= ?` for one, one bound list for more).
 */
type Kind = 'equal' | 'flag' | 'list';

interface FilterDeclaration {
  column: string;
  kind: Kind;
  /** The type of a value (a list's members). */
  of: 'string' | 'number' | 'boolean';
  /** The listing's query parameter; none when the handler derives the filter (`userIds` from `responsibleEmail`). */
  param?: string;
  /** Values compared without case: the query's are lowercased. */
  caseInsensitive?: true;
  /**
   * An index `(company, column, amount, id)` serves an amount order filtered on it (migration 0004):
   * such a page gets one arm per value, each reading at most a page. The first filter given, in
   * this table's order, drives.
   */
  leadsAmountIndex?: true;
  /**
   * The column is one of the flag index `(company, has_attachments, conciled, status, amount, id)`
   * and these are all its values (its CHECK constraint): an amount order filtered on any of that
   * index's columns gets one arm per combination of their values.
   */
  flagIndexValues?: readonly number[];
}

const BANKING_FILTERS = {
  userIds: { column: 'user_id', kind: 'list', of: 'string', leadsAmountIndex: true },
  costCenterIds: {
    column: 'cost_center_id',
    kind: 'list',
    of: 'string',
    param: 'costCenterIds',
    caseInsensitive: true,
    leadsAmountIndex: true,
  },
  categoryIds: {
    column: 'custom_category_id',
    kind: 'list',
    of: 'number',
    param: 'categoryIds',
    leadsAmountIndex: true,
  },
  accountId: { column: 'account_id', kind: 'equal', of: 'number', param: 'accountId', leadsAmountIndex: true },
  hasAttachments: {
    column: 'has_attachments',
    kind: 'flag',
    of: 'boolean',
    param: 'hasAttachments',
    flagIndexValues: [0, 1],
  },
  wasConciled: { column: 'conciled', kind: 'flag', of: 'boolean', param: 'wasConciled', flagIndexValues: [0, 1] },
  status: { column: 'status', kind: 'list', of: 'number', param: 'status', flagIndexValues: [1, 2, 3] },
} as const satisfies Record<string, FilterDeclaration>;

type Table = typeof BANKING_FILTERS;
export type FilterName = keyof Table;
type Scalar<F> = F extends { of: 'string' } ? string : F extends { of: 'number' } ? number : boolean;

/** The value of each filter of the table, as the store receives it. */
export type ColumnFilters = {
  [N in FilterName]?: Table[N] extends { kind: 'list' } ? Array<Scalar<Table[N]>> : Scalar<Table[N]>;
};

/** The columns the table's filters compare (an arm fixes some of them to one value). */
export type FilterColumn = Table[FilterName]['column'];

/** The table's entries, in its order (the order the plan considers them in). */
export const FILTERS = Object.entries(BANKING_FILTERS) as Array<
  [FilterName, FilterDeclaration & { column: FilterColumn }]
>;

/** The stored form of a flag (0, 1); other values as they are. */
export const stored = (value: string | number | boolean): string | number =>
  typeof value === 'boolean' ? (value ? 1 : 0) : value;

/** A filter's values as a list: a list's own, one value's, or none when not given. */
export const valuesOf = (value: ColumnFilters[FilterName]): Array<string | number> | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [stored(value)];
