// The banking statement page: keyset paging (DESIGN §5) over the index that serves the filters.
// A row-value comparison `(sort, id) < (?, ?)` bounds the index range, so a page deep in the
// statement reads what the first page reads. A page is the merge (UNION ALL, re-ordered, limited) of
// one or more arms; each arm fixes some filter columns to one value so that an index leading with
// them yields the rows already in the sort order, and stops after `take` rows, where a single IN
// would have to collect and sort every matching row. Which arms a query gets: banking-arms.ts.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../../db/database.js';
import type { Database } from '../../../db/database.js';
import { literalLimit, unindexedInteger, unindexedTime } from '../../../db/dialect.js';
import { inList } from '../../../db/prepared.js';
import { armsOf, type ArmShape } from './banking-arms.js';
import { FILTERS, stored } from './banking-filters.js';
import type { BankingPageQuery } from './banking-types.js';
import { withErpFilters } from './erp-filters.js';
import { BANKING_DOCUMENT, boundedWalk, matchesSearch, walkedArm } from './search.js';

export const SORT_COLUMNS = {
  transactionDate: 'transaction_date',
  brlAmount: 'brl_amount_minor',
  totalTransactionAmount: 'total_amount_minor',
} as const;

type Eb = ExpressionBuilder<Database, 'banking_transactions'>;
type Query = SelectQueryBuilder<Database, 'banking_transactions', object>;

/**
 * The rows of the company matching the filters, with the arm's fixed columns as equalities. A column
 * marked unindexed is compared through a no-op expression (server/db/dialect.ts), so the planner cannot
 * bound an index range with it and keeps the arm's ordered index driving. The column filters come
 * from banking-filters.ts: one values and flags first, then the ranges, then the lists.
 */
export function filtered<Q extends Query>(db: Db, query: Q, q: BankingPageQuery, shape: ArmShape): Q {
  const f = q.filters;
  const { fixed, unindexed } = shape;
  let out = query.where('company_id', '=', q.companyId) as Query;
  for (const [name, { column, kind }] of FILTERS) {
    const value = fixed[column] ?? f[name];
    if (kind !== 'list' && value !== undefined) out = out.where(column, '=', stored(value as string | number) as never);
  }
  const date = unindexed.date ? unindexedTime(db, 'transaction_date') : sql.ref<string>('transaction_date');
  if (f.from !== undefined) out = out.where(date, '>=', f.from);
  if (f.to !== undefined) out = out.where(date, '<', f.to);
  if (f.amount) {
    const amount = unindexed.amount ? unindexedInteger('brl_amount_minor') : sql.ref<number>('brl_amount_minor');
    out = out.where(amount, f.amount.op, f.amount.minor);
  }
  // The sides of banking-arms.ts's split, each written as its partial index's condition, if any.
  const side = shape.totalVsBrl;
  if (side === 'atLeast') out = out.where('total_amount_minor', '>=', (eb) => eb.ref('brl_amount_minor'));
  if (side === 'below') out = out.where('total_amount_minor', '<', (eb) => eb.ref('brl_amount_minor'));
  if (side === 'above') out = out.where('brl_amount_minor', '<', (eb) => eb.ref('total_amount_minor'));
  if (side && f.amount && f.amount.op !== '=') {
    const { op, minor } = f.amount;
    // total >= brl > X, or total >= brl and total < X (then brl < X), or total < brl < X.
    if (op === '>' && side === 'atLeast') out = out.where('total_amount_minor', '>', minor);
    if (op === '<' && side !== 'above') out = out.where('total_amount_minor', '<', minor);
    if (op === '<' && side === 'above') {
      out = out.where(unindexedInteger('total_amount_minor'), '>=', minor);
      // Such a row has brl >= X − (total − brl) >= X − the company's largest total − brl: read in the
      // same statement (one snapshot) from migration 0011's expression index, written as it declares it.
      const over = sql<number>`(${sql.ref('total_amount_minor')} - ${sql.ref('brl_amount_minor')})`;
      const largest = db
        .selectFrom('banking_transactions')
        .select(over.as('over'))
        .where('company_id', '=', q.companyId)
        .where('brl_amount_minor', '<', (eb) => eb.ref('total_amount_minor'))
        .orderBy(over, 'desc')
        .limit(1);
      out = out.where('brl_amount_minor', '>=', sql<number>`${minor} - (${largest})`);
    }
  }
  for (const [name, { column, kind }] of FILTERS) {
    if (kind !== 'list') continue;
    const value = fixed[column];
    const values = f[name] as Array<string | number> | undefined;
    if (value !== undefined) out = out.where(column, '=', value as never);
    else if (values?.length === 1) out = out.where(column, '=', values[0] as never);
    // Bound as one list (a placeholder in a prepared page): any number of values, one SQL text.
    else if (values !== undefined) out = out.where(inList(db, column, values));
  }
  if (f.search) out = out.where(matchesSearch<'banking_transactions'>(db, BANKING_DOCUMENT, f.search));
  return withErpFilters(db, out, f.erp) as Q;
}

/** An arm's query: its rows' ids and sort keys, in order. */
type ArmQuery = SelectQueryBuilder<Database, 'banking_transactions', { id: number; sort_key: string | number }>;

function arm(db: Db, q: BankingPageQuery, shape: ArmShape): ArmQuery {
  const column = SORT_COLUMNS[q.sort.field];
  // A bounded walk (dialect.ts `searchWalk`): the arm's entries without the search, then the search.
  const bound = boundedWalk(db, q.filters.search, q.take);
  const unsearched = bound === undefined ? q : { ...q, filters: { ...q.filters, search: undefined } };
  let query = filtered(
    db,
    db.selectFrom('banking_transactions').select(['id', `${column} as sort_key`]),
    unsearched,
    shape,
  );
  // A sorted arm's order and cursor go through no-op expressions (see ArmShape.sorted).
  const key = shape.sorted ? unindexedInteger(column) : sql.ref<string | number>(column);
  const id = shape.sorted ? unindexedInteger('id') : sql.ref<number>('id');
  if (q.after) {
    const op = q.sort.direction === 'desc' ? '<' : '>';
    query = query.where((eb: Eb) => eb(eb.tuple(key, id), op, eb.tuple(q.after![0] as never, q.after![1])));
  }
  query = query.orderBy(key, q.sort.direction).orderBy(id, q.sort.direction);
  if (bound === undefined) return query.limit(literalLimit(q.take)) as ArmQuery;
  const entries = query.select(['search_sig_lo', 'search_sig_hi']).limit(literalLimit(bound));
  return walkedArm(db, BANKING_DOCUMENT, q.filters.search!, entries, {
    key: 'sort_key',
    direction: q.sort.direction,
    take: q.take,
  });
}

/** The ids (and sort keys) of one page, in order. */
export function pageIdsQuery(
  db: Db,
  q: BankingPageQuery,
  arms = armsOf(q),
): SelectQueryBuilder<Database, never, { id: number; sort_key: string | number }> {
  const [first, ...rest] = arms.map((shape, i) => db.selectFrom(arm(db, q, shape).as(`arm${i}`)).selectAll());
  if (rest.length === 0) return first as never;
  let union = first!;
  for (const next of rest) union = union.unionAll(next);
  return union
    .orderBy('sort_key', q.sort.direction)
    .orderBy('id', q.sort.direction)
    .limit(literalLimit(q.take)) as never;
}
