// The collection DELETE of categories: every check first, then one atomic step.
import { PLATFORM, type Actor } from '../../../../kit/handler.js';
import type { Db } from '../../../../db/database.js';
import { badRequest, unprocessable, ApiError } from '../../../../kit/errors.js';
import { TYPE_ID } from '../../store/types.js';
import { reassignCategory } from '../../../statements/public.js';
import { categories } from './categories.js';
import { protectedEntries } from '../../store/named-store.js';
import { writeTransaction } from '../../../../db/transaction.js';
import { shownCategories } from './shown.js';
import { recordEvent } from '../../../events/public.js';

/**
 * Deletes the company's categories `ids`. Their establishments move to `moveTo`; their transactions
 * move to `moveTo`, or lose the category when it is absent. Checks, in order: `moveTo` is one of
 * `ids` or not a category of the company (400); an id is not a category of the company (404); an id
 * is DEFAULT (409); establishments are linked and `moveTo` is absent (422). Any failure changes nothing.
 */
export async function deleteCategories(
  db: Db,
  companyId: string,
  ids: readonly number[],
  moveTo: number | undefined,
  now: string,
  actor: Actor = PLATFORM,
): Promise<void> {
  await writeTransaction(db, async (trx) => {
    if (moveTo !== undefined) {
      if (ids.includes(moveTo))
        throw badRequest('moveTo cannot be one of the categories being deleted', [`moveTo: ${moveTo} is one of ids`]);
      const target = await trx
        .selectFrom('categories')
        .select('id')
        .where('company_id', '=', companyId)
        .where('id', '=', moveTo)
        .executeTakeFirst();
      if (!target)
        throw badRequest('moveTo is not a category of the company', [`moveTo: category ${moveTo} does not exist`], {
          reason: 'unknown_reference',
          param: 'moveTo',
        });
    }

    const found = await trx
      .selectFrom('categories')
      .select(['id', 'type_id'])
      .where('company_id', '=', companyId)
      .where('id', 'in', ids)
      .execute();
    const missing = ids.filter((id) => !found.some((row) => row.id === id));
    if (missing.length > 0) {
      throw new ApiError(
        404,
        missing.length === 1 ? 'Category not found' : 'Some categories do not exist',
        missing.map((id) => `category ${id} not found`),
      );
    }
    const defaults = found.filter((row) => row.type_id === TYPE_ID.DEFAULT).map((row) => row.id);
    if (defaults.length > 0) throw protectedEntries(categories, defaults);

    const linked = await trx
      .selectFrom('establishments')
      .select(['category_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('company_id', '=', companyId)
      .where('category_id', 'in', ids)
      .groupBy('category_id')
      .orderBy('category_id')
      .execute();
    if (linked.length > 0 && moveTo === undefined) {
      throw unprocessable(
        'Categories have linked establishments; send moveTo to reassign them',
        linked.map((row) => `category ${row.category_id} has ${row.count} linked establishments`),
      );
    }

    // The deleted categories as they were, with the establishments they had.
    const rows = await trx
      .selectFrom('categories')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    const shown = await shownCategories(trx, companyId, rows);
    if (moveTo !== undefined && linked.length > 0) {
      await trx
        .updateTable('establishments')
        .set({ category_id: moveTo, updated_at: now })
        .where('company_id', '=', companyId)
        .where('category_id', 'in', ids)
        .execute();
    }
    await reassignCategory(trx, companyId, ids, moveTo ?? null, { now, ...actor });
    for (const object of shown) await recordEvent(trx, now, { companyId, type: 'category.deleted', ...actor, object });
    await trx.deleteFrom('categories').where('company_id', '=', companyId).where('id', 'in', ids).execute();
  });
}
