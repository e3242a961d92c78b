// Categories: read the validated request, call the store, shape the reply.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { defineHandlers } from '../../../http/handler.js';
import { notFound } from '../../../http/errors.js';
import type { CategoryRow } from '../tables.js';
import { loadTypes } from '../store/types.js';
import { paging } from '../../../http/paging.js';
import { findCategory, insertCategories, listCategories, listEstablishments, newCategory, renameCategory } from './store/categories.js';
import { deleteCategories } from './store/delete.js';
import { presentCategories } from './present.js';

const categoryNotFound = () => notFound('Category not found');

/** Categories with their establishments and types, as the API shows them. */
async function withDetails(db: Kysely<Database>, companyId: string, rows: CategoryRow[]) {
  const [establishments, types] = await Promise.all([listEstablishments(db, companyId, rows.map((row) => row.id)), loadTypes(db)]);
  return presentCategories(rows, establishments, types);
}

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
    return { status: 200, body: { items: await withDetails(ctx.db, companyId, items), ...(nextPageStartKey ? { nextPageStartKey } : {}) } };
  },

  createCategory: async ({ body }, ctx) => {
    const { companyId } = ctx.auth;
    const [id] = await insertCategories(ctx.db, [newCategory(companyId, body.name, 'CUSTOM', ctx.clock.now().toISOString())]);
    const category = await one(ctx.db, companyId, id === undefined ? undefined : await findCategory(ctx.db, companyId, id));
    return { status: 201, body: category, headers: { Location: `${ctx.config.baseUrl}/categories/v1/categories/${category.id}` } };
  },

  getCategory: async ({ params }, ctx) => {
    const { companyId } = ctx.auth;
    return { status: 200, body: await one(ctx.db, companyId, await findCategory(ctx.db, companyId, params.id)) };
  },

  updateCategory: async ({ params, body }, ctx) => {
    const { companyId } = ctx.auth;
    const row = await renameCategory(ctx.db, companyId, params.id, body.name, ctx.clock.now().toISOString());
    return { status: 200, body: await one(ctx.db, companyId, row) };
  },

  deleteCategories: async ({ query }, ctx) => {
    await deleteCategories(ctx.db, ctx.auth.companyId, query.ids, query.moveTo, ctx.clock.now().toISOString());
    return { status: 204 };
  },
});
