// Which arms a banking page is merged from (banking-list.ts), per sort order:
// - transactionDate: the filter indexes end with the date, so one arm, or one per value of the first
//   list filter with several values (user, cost center, category, status).
// - brlAmount / totalTransactionAmount: an amount order and a filter share one B-tree only when the
//   filter's columns lead it (migration 0004). A user, cost center, category or account filter gets
//   one arm per value on `(column, amount, id)`; otherwise status / wasConciled / hasAttachments get
//   one arm per combination of their values (at most 2 × 2 × 3, unfiltered ones enumerated from the
//   CHECK constraints) on `(company, has_attachments, conciled, status, amount, id)`. Each arm reads
//   at most `take` rows. A range filter alone (dates, or the BRL amount under the total order) cannot
//   lead an amount index: planBankingPage counts its rows (bounded) and the arm either sorts the few
//   rows of the range or walks the company's amount index checking the range on each entry. Under
//   the total order, that walk is split by how the total compares with the BRL amount (totalVsBrl),
//   so that it never has to pass the rows outside the BRL range before reaching those inside.
// The filters' parts in these plans are declared in banking-filters.ts: which lead an amount index
// (`leadsAmountIndex`), which make the flag index (`flagIndexValues`), which are lists.
import { FILTERS, stored, valuesOf, type FilterColumn } from './banking-filters.js';
import type { BankingPageQuery } from './banking-types.js';

export type ArmColumn = FilterColumn;

export interface ArmShape {
  /** Columns fixed to one value in this arm (they replace the corresponding filter). */
  fixed: Partial<Record<ArmColumn, string | number>>;
  /** Filters the planner must not use as an index range (kept as a per-row check). */
  unindexed: { date: boolean; amount: boolean };
  /**
   * Splits the rows matching a BRL amount range under the total order (the walk plan) by how the
   * total compares with the BRL amount, so that each part's walk of a total index is bounded:
   * - 'atLeast': `total >= brl` (fees and IOF only add to the BRL amount: nearly all rows). A BRL
   *   amount above X implies a total above X, and a total below X a BRL amount below X, so under
   *   `brl > X` the walk starts at `total > X`, and under `brl < X` it reads only `total < X`, where
   *   every row matches.
   * - 'below': `total < brl` (none unless a negative fee is ingested), walked on a partial index;
   *   under `brl < X`, bounded by `total < X`.
   * - 'above' (under `brl < X`, descending): `brl < X <= total`, the rows whose fees lift the total
   *   to X or more; they come before all others. A partial index holds the rows with `brl < total`
   *   by BRL amount (migration 0011): this arm reads its range `X − D <= brl < X`, D being the
   *   company's largest `total − brl` (one entry of that migration's expression index, read in the
   *   same statement), and sorts it (`sorted`). With a cursor already below X it has no rows left
   *   and is left out. Ascending, the walk from the smallest totals meets matching rows at once and
   *   is not split.
   * Without the split, walking the totals downwards would check every row whose BRL amount is
   * ≥ X first (walking upwards under `brl > X`, every row below X), as the two amounts move together:
   * `totalTransactionAmount:desc` with `amountLt=50` read 64× page 1 on a 1,000,000-row statement.
   */
  totalVsBrl?: 'atLeast' | 'below' | 'above';
  /**
   * The arm reads its rows from a filter's index and sorts them: its order and cursor are compared
   * through no-op expressions, so the planner does not walk the sort order's index instead.
   */
  sorted?: boolean;
}

type Driver = { column: ArmColumn; values: ReadonlyArray<string | number> };

function dateOrderArms(q: BankingPageQuery): ArmShape[] {
  const f = q.filters;
  // A range on the amount matches many rows: under date order, keep the date index driving.
  const unindexed = { date: false, amount: f.amount !== undefined && f.amount.op !== '=' };
  const split = FILTERS.find(([name, filter]) => filter.kind === 'list' && (valuesOf(f[name])?.length ?? 0) > 1);
  if (!split) return [{ fixed: {}, unindexed }];
  const [name, { column }] = split;
  return valuesOf(f[name])!.map((value) => ({ fixed: { [column]: value }, unindexed }));
}

/** The filter whose `(column, amount, id)` index drives an amount order, if any (the first given). */
function amountDriver(q: BankingPageQuery): Driver | undefined {
  for (const [name, filter] of FILTERS) {
    const values = valuesOf(q.filters[name]);
    if (filter.leadsAmountIndex && values !== undefined && values.length > 0) return { column: filter.column, values };
  }
  return undefined;
}

/** The arms' combinations of the flag index's columns when one of them is filtered, else undefined. */
function flagCombinations(q: BankingPageQuery): ArmShape['fixed'][] | undefined {
  const flagIndex = FILTERS.filter(([, filter]) => filter.flagIndexValues !== undefined);
  if (flagIndex.every(([name]) => q.filters[name] === undefined)) return undefined;
  let out: ArmShape['fixed'][] = [{}];
  for (const [name, filter] of flagIndex) {
    const given = q.filters[name];
    const choices = given === undefined ? filter.flagIndexValues! : (valuesOf(given) ?? []).map(stored);
    out = out.flatMap((fixed) => choices.map((value) => ({ ...fixed, [filter.column]: value })));
  }
  return out;
}

/** Whether an amount-ordered page has only range filters, so its plan depends on their row count. */
export function rangeOnly(q: BankingPageQuery): boolean {
  const f = q.filters;
  if (q.sort.field === 'transactionDate' || amountDriver(q) || flagCombinations(q)) return false;
  return (
    f.from !== undefined || f.to !== undefined || (f.amount !== undefined && q.sort.field === 'totalTransactionAmount')
  );
}

export function armsOf(q: BankingPageQuery): ArmShape[] {
  if (q.sort.field === 'transactionDate') return dateOrderArms(q);
  const f = q.filters;
  // The BRL amount filter bounds the BRL order's own index; under the total order, a range of it
  // is checked per row (unless the plan is to sort the range).
  const foreignAmountRange = f.amount !== undefined && f.amount.op !== '=' && q.sort.field === 'totalTransactionAmount';
  const driver = amountDriver(q);
  if (driver) {
    const unindexed = { date: false, amount: foreignAmountRange };
    return driver.values.map((value) => ({ fixed: { [driver.column]: value }, unindexed }));
  }
  const flags = flagCombinations(q);
  if (flags) return flags.map((fixed) => ({ fixed, unindexed: { date: false, amount: foreignAmountRange } }));
  const walk = rangeOnly(q) && q.rangePlan !== 'sort';
  const shape: ArmShape = {
    fixed: {},
    unindexed: { date: walk, amount: walk && q.sort.field === 'totalTransactionAmount' },
  };
  if (!walk || !foreignAmountRange) return [shape];
  // Under `brl < X` ascending, the walk from the smallest totals meets matching rows at once.
  if (f.amount?.op === '<' && q.sort.direction === 'asc') return [shape];
  const split: ArmShape[] = [
    { ...shape, totalVsBrl: 'atLeast' },
    { ...shape, totalVsBrl: 'below' },
  ];
  const belowX = q.after !== undefined && Number(q.after[0]) < f.amount!.minor;
  if (f.amount?.op === '<' && !belowX)
    split.push({ fixed: {}, unindexed: { date: true, amount: false }, totalVsBrl: 'above', sorted: true });
  return split;
}
