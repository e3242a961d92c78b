// One page of the banking statement with everything a statement item shows, in one query: the page's
// ids come from the keyset query (banking-list.ts); names of users, categories and cost centers are
// joined by primary key; the attachments of the rows that have any come as a JSON array per row.
import type { Db } from '../../../db/database.js';
import { BANKING_COLUMNS, ERP_COLUMNS, type BankingTransactionRow, type ErpState } from '../tables.js';

type ErpColumn = (typeof ERP_COLUMNS)[number];
import { pageIdsQuery } from './banking-list.js';
import { armsOf, type ArmShape } from './banking-arms.js';
import { prepared, preparedShapes, type Placeholders } from '../../../db/prepared.js';
import type { BankingPageQuery } from './banking-types.js';
import { FILTERS, type ColumnFilters, type FilterName } from './banking-filters.js';
import { attachmentsOfRow, withAttachments, type AttachmentSummary } from './attachments-of.js';
import { planBankingPage } from './banking-plan.js';
import { withDisplayNames } from '../../directory/public.js';
import { withRequesterEmail } from '../../users/public.js';
import { boundedWalk, unwalked } from './search.js';

/** The columns a statement item shows (not its bookkeeping: creation time, ingest run, reconciliation time). */
type ItemColumn =
  | Exclude<(typeof BANKING_COLUMNS)[number], 'conciled_at' | 'created_at'>
  | 'id'
  | (typeof ERP_COLUMNS)[number];
const ITEM_COLUMNS: readonly ItemColumn[] = [
  'id',
  ...BANKING_COLUMNS.filter(
    (c): c is Exclude<(typeof BANKING_COLUMNS)[number], 'conciled_at' | 'created_at'> =>
      c !== 'conciled_at' && c !== 'created_at',
  ),
  ...ERP_COLUMNS,
];
const itemColumns = ITEM_COLUMNS.map((c) => `t.${c}` as const);

export interface BankingItem extends Pick<BankingTransactionRow, Exclude<ItemColumn, ErpColumn>>, ErpState {
  user_email: string | null;
  requester_email: string | null;
  custom_category_name: string | null;
  cost_center_name: string | null;
  attachments: AttachmentSummary[];
}

interface BankingPage {
  items: BankingItem[];
  /** The sort key of the last item when more rows follow. */
  nextKey?: [string | number, number];
}

/**
 * The page's rows (one more than `take`, to tell whether more follow) with joined names and their
 * attachments; `query` already planned, `arms` those of its ids query (banking-arms.ts).
 */
export function bankingPageRowsQuery(db: Db, query: BankingPageQuery, arms = armsOf(idsOf(query))) {
  const direction = query.sort.direction;
  return db
    .selectFrom(pageIdsQuery(db, idsOf(query), arms).as('p'))
    .innerJoin('banking_transactions as t', 't.id', 'p.id')
    .select(itemColumns)
    .select('p.sort_key')
    .select((eb) => attachmentsOfRow(db, 'banking_transactions', eb))
    .$call(withDisplayNames)
    .$call(withRequesterEmail)
    .orderBy('p.sort_key', direction)
    .orderBy('p.id', direction);
}

/** The ids query of a page: one row more than the page, to tell whether more follow. */
const idsOf = (query: BankingPageQuery): BankingPageQuery => ({ ...query, take: query.take + 1 });

// The page query is prepared once per shape (server/db/prepared.ts): the sort, the page size, the
// plan, which filters are given (banking-filters.ts: a flag with its value, a list with its arity:
// one, or several bound as one list), the ranges given and, per arm, which columns it fixes. Every
// value (the company, the column filters' values, dates, amount, cursor and each arm's fixed values)
// is a placeholder bound on each run.

/** A column filter in a shape: a one-value filter `given`, a flag's value, a list's arity. */
type FilterShape = 'given' | boolean | 'one' | 'many' | undefined;

interface PageShape {
  sort: BankingPageQuery['sort'];
  take: number;
  rangePlan: BankingPageQuery['rangePlan'];
  after: boolean;
  filters: Partial<Record<FilterName, FilterShape>>;
  ranges: { from: boolean; to: boolean };
  amount: '=' | '>' | '<' | undefined;
  /** Per arm, its shape with the fixed columns' values left out. */
  arms: Array<Omit<ArmShape, 'fixed'> & { fixed: string[] }>;
}

function filterShape(kind: 'equal' | 'flag' | 'list', value: unknown): FilterShape {
  if (value === undefined) return undefined;
  if (kind === 'flag') return value as boolean;
  if (kind === 'equal') return 'given';
  return (value as unknown[]).length === 1 ? 'one' : 'many';
}

function shapeOf(query: BankingPageQuery, arms: ArmShape[]): PageShape {
  const f = query.filters;
  return {
    sort: query.sort,
    take: query.take,
    rangePlan: query.rangePlan,
    after: query.after !== undefined,
    filters: Object.fromEntries(FILTERS.map(([name, { kind }]) => [name, filterShape(kind, f[name])])),
    ranges: { from: f.from !== undefined, to: f.to !== undefined },
    amount: f.amount?.op,
    arms: arms.map((arm) => ({ ...arm, fixed: Object.keys(arm.fixed) })),
  };
}

function valuesOf({ companyId, filters: f, after }: BankingPageQuery, arms: ArmShape[]): Record<string, unknown> {
  const values: Record<string, unknown> = {
    companyId,
    from: f.from,
    to: f.to,
    amount: f.amount?.minor,
    afterKey: after?.[0],
    afterId: after?.[1],
  };
  for (const [name, { kind }] of FILTERS) {
    if (kind === 'equal') values[name] = f[name];
    if (kind === 'list') {
      values[name] = f[name];
      values[`${name}.0`] = (f[name] as unknown[] | undefined)?.[0];
    }
  }
  arms.forEach((arm, i) => {
    for (const [column, value] of Object.entries(arm.fixed)) values[`arm${i}.${column}`] = value;
  });
  return values;
}

/** The page query of a shape, every value a placeholder. */
function pageOfShape(db: Db, shape: PageShape, placeholders: Placeholders<Record<string, unknown>>) {
  // Each placeholder stands for a value of the type the query builder asks for there.
  const p = (name: string) => placeholders[name] as never;
  const filter = (name: FilterName) => {
    const given = shape.filters[name];
    if (given === undefined || typeof given === 'boolean') return given;
    return given === 'given' ? p(name) : given === 'one' ? [p(`${name}.0`)] : p(name);
  };
  const query: BankingPageQuery = {
    companyId: p('companyId'),
    sort: shape.sort,
    take: shape.take,
    rangePlan: shape.rangePlan,
    after: shape.after ? [p('afterKey'), p('afterId')] : undefined,
    filters: {
      ...(Object.fromEntries(FILTERS.map(([name]) => [name, filter(name)])) as ColumnFilters),
      from: shape.ranges.from ? p('from') : undefined,
      to: shape.ranges.to ? p('to') : undefined,
      amount: shape.amount ? { op: shape.amount, minor: p('amount') } : undefined,
    },
  };
  const arms = shape.arms.map((arm, i) => ({
    ...arm,
    fixed: Object.fromEntries(arm.fixed.map((column) => [column, p(`arm${i}.${column}`)])),
  }));
  return bankingPageRowsQuery(db, query, arms);
}

const pageQueries = preparedShapes(pageOfShape);

export async function loadBankingPage(db: Db, unplanned: BankingPageQuery): Promise<BankingPage> {
  const query = await planBankingPage(db, unplanned);
  const arms = armsOf(idsOf(query));
  // A search's words and the metadata keys vary in number and values: such a page is built for the request, not prepared.
  const { rows } =
    query.filters.search || query.filters.erp
      ? { rows: await bankingPageRowsQuery(db, query, arms).execute() }
      : await pageQueries(db, shapeOf(query, arms), valuesOf(query, arms));
  // A bounded walk that leaves the page short may have stopped before the rows that fill it.
  if (rows.length <= query.take && boundedWalk(db, query.filters.search, query.take) !== undefined)
    return loadBankingPage(db, {
      ...unplanned,
      filters: { ...unplanned.filters, search: unwalked(query.filters.search!) },
    });
  const more = rows.length > query.take;
  // The rows become the items in place: copying 40 columns per row costs more than the query.
  const items = (more ? rows.slice(0, query.take) : rows).map(withAttachments);
  const last = items[items.length - 1];
  return { items, nextKey: more && last ? [last.sort_key, last.id] : undefined };
}

/** Banking items with their names and attachments, for a caller's own filter and order (change feed, created events). */
export const bankingItems = (db: Db) =>
  db
    .selectFrom('banking_transactions as t')
    .select(itemColumns)
    .select((eb) => attachmentsOfRow(db, 'banking_transactions', eb))
    .$call(withDisplayNames)
    .$call(withRequesterEmail);

const itemById = prepared((db, p: { companyId: string; id: number }) =>
  db
    .selectFrom('banking_transactions as t')
    .select(itemColumns)
    .select((eb) => attachmentsOfRow(db, 'banking_transactions', eb))
    .where('t.company_id', '=', p.companyId)
    .where('t.id', '=', p.id)
    .$call(withDisplayNames)
    .$call(withRequesterEmail),
);

/** One banking transaction of the company with its names and attachments, or undefined. */
export async function findBankingItem(db: Db, companyId: string, id: number): Promise<BankingItem | undefined> {
  const [row] = (await itemById(db, { companyId, id })).rows;
  return row && withAttachments(row);
}
