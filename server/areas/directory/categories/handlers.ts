// Categories: read the validated request, call the store, shape the reply.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { defineHandlers } from '../../../kit/handler.js';
import { notFound } from '../../../kit/errors.js';
import type { CategoryRow } from '../tables.js';
import { paging } from '../../../kit/paging.js';
import { createCategory, findCategory, listCategories, newCategory, renameCategory } from './store/categories.js';
import { shownCategories } from './store/shown.js';
import { deleteCategories } from './store/delete.js';

const categoryNotFound = () => notFound('Category not found');

const withDetails = shownCategories;

async function one(db: Kysely<Database>, companyId: string, row: CategoryRow | undefined) {
  const [category] = row ? await withDetails(db, companyId, [row]) : [];
  if (!category) throw categoryNotFound();
  return category;
}

export const handlers = defineHandlers({
  listCategories: async ({ query }, ctx) => {
    const { companyId } = ctx.auth;
    const page = paging('listCategories', ctx, query, {}, ['number']);
    const rows = await listCategories(ctx.db, companyId, page);
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.id]);
    return {
      status: 200,
      body: { items: await withDetails(ctx.db, companyId, items), ...(nextPageStartKey ? { nextPageStartKey } : {}) },
    };
  },

  createCategory: async ({ body }, ctx) => {
    const { companyId } = ctx.auth;
    const category = await createCategory(
      ctx.db,
      newCategory(companyId, body.name, 'CUSTOM', ctx.auth.companyClock.now().toISOString()),
      ctx.actor,
    );
    return {
      status: 201,
      body: category,
      headers: { Location: `${ctx.config.baseUrl}/categories/v1/categories/${category.id}` },
    };
  },

  getCategory: async ({ params }, ctx) => {
    const { companyId } = ctx.auth;
    return { status: 200, body: await one(ctx.db, companyId, await findCategory(ctx.db, companyId, params.id)) };
  },

  updateCategory: async ({ params, body }, ctx) => {
    const { companyId } = ctx.auth;
    const row = await renameCategory(
      ctx.db,
      companyId,
      params.id,
      body.name,
      ctx.auth.companyClock.now().toISOString(),
      ctx.actor,
    );
    return { status: 200, body: await one(ctx.db, companyId, row) };
  },

  deleteCategories: async ({ query }, ctx) => {
    await deleteCategories(
      ctx.db,
      ctx.auth.companyId,
      query.ids,
      query.moveTo,
      ctx.auth.companyClock.now().toISOString(),
      ctx.actor,
    );
    return { status: 204 };
  },
});
