// The credit-card statement's filters that compare a column with values, each declared once as the
// banking list's are (banking-filters.ts), with the banking list's parameter names and values: the
// column, the kind of comparison and the query parameter. The records' query (credit-card-page.ts
// `cardRecordsFiltered`, which the list, the summary and the export share) and the handlers' query
// (credit-card-query.ts) read this table; a new filter of this sort is one entry here plus its test.
// The cards (one ordered arm each), the types (derived from two columns: card-types.ts) and the
// ranges have rules of their own. No index leads with these columns: a page walks the company's
// (or the card's) date index and checks them on each record.
import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../../../db/database.js';

interface FilterDeclaration {
  column: 'status' | 'conciled' | 'has_attachments' | 'custom_category_id' | 'cost_center_id' | 'category_code';
  /** `flag`: a boolean, stored 0 or 1; `list`: any of several values. */
  kind: 'flag' | 'list';
  /** The type of a value (a list's members). */
  of: 'string' | 'number' | 'boolean';
  /** Values compared without case: the query's are lowercased (the stored ones are lower case). */
  caseInsensitive?: true;
}

const CREDIT_CARD_FILTERS = {
  status: { column: 'status', kind: 'list', of: 'number' },
  wasConciled: { column: 'conciled', kind: 'flag', of: 'boolean' },
  hasAttachments: { column: 'has_attachments', kind: 'flag', of: 'boolean' },
  categoryIds: { column: 'custom_category_id', kind: 'list', of: 'number' },
  costCenterIds: { column: 'cost_center_id', kind: 'list', of: 'string', caseInsensitive: true },
  platformCategoryIds: { column: 'category_code', kind: 'list', of: 'string' },
} as const satisfies Record<string, FilterDeclaration>;

type Table = typeof CREDIT_CARD_FILTERS;
/** A filter's name, which is also its query parameter. */
export type CardFilterName = keyof Table;
type Scalar<F> = F extends { of: 'string' } ? string : F extends { of: 'number' } ? number : boolean;

/** The value of each filter of the table, as the store receives it. */
export type CardColumnFilters = {
  [N in CardFilterName]?: Table[N] extends { kind: 'list' } ? Array<Scalar<Table[N]>> : Scalar<Table[N]>;
};

/** The table's entries, in its order. */
export const CARD_FILTERS = Object.entries(CREDIT_CARD_FILTERS) as Array<[CardFilterName, FilterDeclaration]>;

/** `query` keeping only the records that every given filter of `filters` keeps. */
export function withColumnFilters<O>(
  query: SelectQueryBuilder<Database, 'credit_card_transactions', O>,
  filters: CardColumnFilters,
): SelectQueryBuilder<Database, 'credit_card_transactions', O> {
  let out = query;
  for (const [name, { column, kind }] of CARD_FILTERS) {
    const value = filters[name];
    if (value === undefined) continue;
    if (kind === 'flag') out = out.where(column, '=', value ? 1 : 0);
    else {
      const values = value as Array<string | number>;
      out =
        values.length === 1 ? out.where(column, '=', values[0] as never) : out.where(column, 'in', values as never[]);
    }
  }
  return out;
}
