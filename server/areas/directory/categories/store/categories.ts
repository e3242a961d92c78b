// Queries on the company's categories and their establishments.
import { PLATFORM, type Actor } from '../../../../kit/handler.js';
import type { Db } from '../../../../db/database.js';
import type { CategoryRow, NewCategory, NewEstablishment } from '../../tables.js';
import { TYPE_ID } from '../../store/types.js';
import {
  createEntry,
  type IdPage,
  insertTypedEntries,
  insertTypedEntry,
  type NamedEntries,
  newTypedEntry,
  renameEntry,
} from '../../store/named-store.js';
import { shownCategories } from './shown.js';

/** A page in ascending id order, with one extra row to tell whether more follow. */
export async function listCategories(db: Db, companyId: string, page: IdPage): Promise<CategoryRow[]> {
  let query = db.selectFrom('categories').selectAll().where('company_id', '=', companyId);
  if (page.after) query = query.where('id', '>', page.after[0]);
  return query
    .orderBy('id')
    .limit(page.limit + 1)
    .execute();
}

export async function findCategory(db: Db, companyId: string, id: number): Promise<CategoryRow | undefined> {
  return db
    .selectFrom('categories')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * DEFAULT categories cannot be renamed or deleted; renaming one touches the transactions classified
 * with it. Deleting categories is their own collection operation (delete.ts).
 */
export const categories: NamedEntries<CategoryRow, Awaited<ReturnType<typeof shownCategories>>[number]> & {
  table: 'categories';
} = {
  table: 'categories',
  noun: 'category',
  plural: 'categories',
  event: 'category',
  find: findCategory,
  show: shownCategories,
  isDefault: (category) => category.type_id === TYPE_ID.DEFAULT,
  referencedBy: 'custom_category_id',
};

/** A category row ready to insert. */
export const newCategory = newTypedEntry;

/** Inserts categories and answers their ids, in order; a name already used in the company is 409. */
export const insertCategories = (db: Db, rows: NewCategory[]) => insertTypedEntries(db, categories, rows);

/** Creates one CUSTOM category (409 on a taken name), records `category.created`, answers it as shown. */
export const createCategory = (db: Db, row: NewCategory, actor: Actor) =>
  createEntry(db, categories, row, actor, (trx) => insertTypedEntry(trx, categories, row));

export async function insertEstablishments(db: Db, rows: NewEstablishment[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('establishments').values(rows).execute();
}

/** Renames a CUSTOM category; undefined when absent; 409 when DEFAULT or the name is taken. */
export const renameCategory = (db: Db, companyId: string, id: number, name: string, now: string, actor = PLATFORM) =>
  renameEntry(db, categories, companyId, id, name, now, actor);

/** Whether the company has any category (then its directory was seeded before). */
export async function hasCategories(db: Db, companyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('categories')
    .select('id')
    .where('company_id', '=', companyId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
