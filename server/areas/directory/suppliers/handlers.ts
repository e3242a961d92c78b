// Suppliers: read the validated request, call the store, shape the reply.
import { defineHandlers } from '../../../kit/handler.js';
import { notFound } from '../../../kit/errors.js';
import { paging } from '../../../kit/paging.js';
import { createSupplier, deleteSupplier, findSupplier, listSuppliers, newSupplier, renameSupplier } from './store.js';
import { presentSupplier as present } from './present.js';

const supplierNotFound = () => notFound('Supplier not found');

export const handlers = defineHandlers({
  listSuppliers: async ({ query }, ctx) => {
    const { companyId } = ctx.auth;
    const page = paging('listSuppliers', ctx, query, {}, ['number']);
    const rows = await listSuppliers(ctx.db, companyId, page);
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.id]);
    return { status: 200, body: { items: items.map(present), ...(nextPageStartKey ? { nextPageStartKey } : {}) } };
  },

  createSupplier: async ({ body }, ctx) => {
    const { companyId } = ctx.auth;
    const supplier = await createSupplier(
      ctx.db,
      newSupplier(companyId, body.name, 'CUSTOM', ctx.auth.companyClock.now().toISOString()),
      ctx.actor,
    );
    return {
      status: 201,
      body: supplier,
      headers: { Location: `${ctx.config.baseUrl}/suppliers/v1/suppliers/${supplier.id}` },
    };
  },

  getSupplier: async ({ params }, ctx) => {
    const row = await findSupplier(ctx.db, ctx.auth.companyId, params.id);
    if (!row) throw supplierNotFound();
    return { status: 200, body: present(row) };
  },

  updateSupplier: async ({ params, body }, ctx) => {
    const row = await renameSupplier(
      ctx.db,
      ctx.auth.companyId,
      params.id,
      body.name,
      ctx.auth.companyClock.now().toISOString(),
      ctx.actor,
    );
    if (!row) throw supplierNotFound();
    return { status: 200, body: present(row) };
  },

  deleteSupplier: async ({ params }, ctx) => {
    if (
      !(await deleteSupplier(
        ctx.db,
        ctx.auth.companyId,
        params.id,
        ctx.auth.companyClock.now().toISOString(),
        ctx.actor,
      ))
    )
      throw supplierNotFound();
    return { status: 204 };
  },
});
