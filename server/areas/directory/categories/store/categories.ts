// Queries on the company's categories and their establishments.
import { PLATFORM, type Actor } from '../../../../kit/handler.js';
import type { Db } from '../../../../db/database.js';
import { conflict } from '../../../../kit/errors.js';
import type { CategoryRow, DirectoryType, NewCategory, NewEstablishment } from '../../tables.js';
import { cleanName, idsInOrder, nameKey, uniqueName } from '../../names.js';
import { TYPE_ID } from '../../store/types.js';
import { writeTransaction } from '../../../../db/transaction.js';
import { changedAttributes, recordEvent } from '../../../events/public.js';
import { shownCategories } from './shown.js';
import { touchStatementRows } from '../../../statements/public.js';

/** A page in ascending id order, with one extra row to tell whether more follow. */
export async function listCategories(
  db: Db,
  companyId: string,
  page: { limit: number; after?: [number] },
): Promise<CategoryRow[]> {
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

export function newCategory(companyId: string, name: string, type: DirectoryType, now: string): NewCategory {
  return {
    company_id: companyId,
    name: cleanName(name),
    name_key: nameKey(name),
    type_id: TYPE_ID[type],
    created_at: now,
    updated_at: now,
  };
}

/** Inserts categories and answers their ids, in order; a name already used in the company is 409. */
export async function insertCategories(db: Db, rows: NewCategory[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await uniqueName('category', () =>
    db.insertInto('categories').values(rows).returning(['id', 'name_key']).execute(),
  );
  return idsInOrder(rows, inserted);
}

/** Creates one CUSTOM category (409 on a taken name), records `category.created`, answers it as shown. */
export async function createCategory(db: Db, row: NewCategory, actor: Actor) {
  return writeTransaction(db, async (trx) => {
    const [id] = await insertCategories(trx, [row]);
    const created = id === undefined ? undefined : await findCategory(trx, row.company_id, id);
    if (!created) throw new Error('the created category was not found');
    const [shown] = await shownCategories(trx, row.company_id, [created]);
    await recordEvent(trx, row.created_at, {
      companyId: row.company_id,
      type: 'category.created',
      ...actor,
      object: shown,
    });
    return shown!;
  });
}

export async function insertEstablishments(db: Db, rows: NewEstablishment[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('establishments').values(rows).execute();
}

export const protectedCategories = (ids: readonly number[]) =>
  conflict(
    'DEFAULT categories cannot be renamed or deleted',
    ids.map((id) => `category ${id} is DEFAULT`),
  );

/** Renames a CUSTOM category; undefined when absent; 409 when DEFAULT or the name is taken. */
export async function renameCategory(
  db: Db,
  companyId: string,
  id: number,
  name: string,
  now: string,
  actor: Actor = PLATFORM,
): Promise<CategoryRow | undefined> {
  return writeTransaction(db, async (trx) => {
    const category = await findCategory(trx, companyId, id);
    if (!category) return undefined;
    if (category.type_id === TYPE_ID.DEFAULT) throw protectedCategories([id]);
    const changes = { name: cleanName(name), name_key: nameKey(name), updated_at: now };
    await uniqueName('category', () =>
      trx.updateTable('categories').set(changes).where('company_id', '=', companyId).where('id', '=', id).execute(),
    );
    if (changes.name !== category.name)
      await touchStatementRows(trx, companyId, 'custom_category_id', [id], { now, ...actor });
    const renamed = { ...category, ...changes };
    const [before, after] = await shownCategories(trx, companyId, [category, renamed]);
    await recordEvent(trx, now, {
      companyId,
      type: 'category.updated',
      ...actor,
      object: after,
      previousAttributes: changedAttributes(before!, after!),
    });
    return renamed;
  });
}

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
