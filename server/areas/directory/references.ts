// What the statements may read of the directory: whether a company's categories and cost centers
// exist, and the display names of a statement row's references. withDisplayNames also joins the
// user's address (the users area's table) so a page stays one statement: the one read across owners
// in a join, listed in test/areas.table-owners.test.ts.
import type { SelectQueryBuilder } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import { chunks } from '../../lib/chunks.js';

/** The ids among `ids` of the company's rows of `table`. */
async function companyIdsIn<Id extends number | string>(
  db: Db,
  table: 'categories' | 'cost_centers',
  companyId: string,
  ids: readonly Id[],
): Promise<Set<Id>> {
  const found = new Set<Id>();
  for (const chunk of chunks(ids)) {
    const rows = await db
      .selectFrom(table)
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', 'in', chunk)
      .execute();
    for (const row of rows) found.add(row.id as Id);
  }
  return found;
}

/** The company's categories among `ids`. */
export const categoryIdsIn = (db: Db, companyId: string, ids: readonly number[]) =>
  companyIdsIn(db, 'categories', companyId, ids);

/** The company's cost centers among `ids`. */
export const costCenterIdsIn = (db: Db, companyId: string, ids: readonly string[]) =>
  companyIdsIn(db, 'cost_centers', companyId, ids);

/** The names of the company's categories or cost centers among `ids`, by id as text. */
async function directoryNames(
  db: Db,
  table: 'categories' | 'cost_centers',
  companyId: string,
  ids: readonly (string | number)[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const chunk of chunks(ids)) {
    const rows = await db
      .selectFrom(table)
      .select(['id', 'name'])
      .where('company_id', '=', companyId)
      .where('id', 'in', chunk as never[])
      .execute();
    for (const row of rows) names.set(String(row.id), row.name);
  }
  return names;
}

/** The names of the company's categories among `ids`, by id as text. */
export const categoryNames = (db: Db, companyId: string, ids: readonly number[]) =>
  directoryNames(db, 'categories', companyId, ids);

/** The names of the company's cost centers among `ids`, by id. */
export const costCenterNames = (db: Db, companyId: string, ids: readonly string[]) =>
  directoryNames(db, 'cost_centers', companyId, ids);

/** The company's categories and cost centers, with their names (the statements' search matches them). */
export async function categoriesAndCostCenters(db: Db, companyId: string) {
  const [categories, costCenters] = await Promise.all([
    db.selectFrom('categories').select(['id', 'name']).where('company_id', '=', companyId).execute(),
    db.selectFrom('cost_centers').select(['id', 'name']).where('company_id', '=', companyId).execute(),
  ]);
  return { categories, costCenters };
}

/** The columns of a statement row that reference users, categories and cost centers. */
interface Referencing {
  user_id: string | null;
  custom_category_id: number | null;
  cost_center_id: string | null;
}

/** The display names `withDisplayNames` adds to each row (null when the reference is). */
interface DisplayNames {
  user_email: string | null;
  custom_category_name: string | null;
  cost_center_name: string | null;
}

/**
 * `query` with the names of its statement row's references: the row is the table aliased `t`
 * (a statement table selected `as t`); its user's address and its category's and cost
 * center's names are left-joined (aliases `u`, `c`, `cc`) and selected as `user_email`,
 * `custom_category_name` and `cost_center_name`. One statement per page: the names come with the
 * rows, not a query per row. Apply it last: the joined aliases are not part of the returned query's type.
 */
export function withDisplayNames<DB extends Record<'t', Referencing>, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O & DisplayNames> {
  // Kysely cannot join by alias on a generic table set: the query is typed as the bare statement row here.
  const statementQuery = query as unknown as SelectQueryBuilder<Database & { t: Referencing }, 't', O>;
  return statementQuery
    .leftJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('categories as c', 'c.id', 't.custom_category_id')
    .leftJoin('cost_centers as cc', 'cc.id', 't.cost_center_id')
    .select([
      'u.email as user_email',
      'c.name as custom_category_name',
      'cc.name as cost_center_name',
    ]) as unknown as SelectQueryBuilder<DB, TB, O & DisplayNames>;
}
