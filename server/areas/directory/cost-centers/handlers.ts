// Cost centers: read the validated request, call the store, shape the reply.
import { defineHandlers } from '../../../kit/handler.js';
import { notFound } from '../../../kit/errors.js';
import type { CostCenterRow } from '../tables.js';
import {
  createCostCenter,
  deleteCostCenter,
  findCostCenter,
  listCostCenters,
  newCostCenter,
  renameCostCenter,
} from './store.js';
import { presentCostCenter as present } from './present.js';

const costCenterNotFound = () => notFound('Cost center not found');

/** UUIDs compare case-insensitively; ids are stored in lower case. */
const idOf = (params: { id: string }) => params.id.toLowerCase();

/** The list item adds the deprecated `responsible` when one is recorded. */
const presentListItem = (row: CostCenterRow) => ({
  ...present(row),
  ...(row.responsible_id !== null ? { responsible: { id: row.responsible_id, name: row.responsible_name ?? '' } } : {}),
});

export const handlers = defineHandlers({
  listCostCenters: async (_input, ctx) => {
    const rows = await listCostCenters(ctx.db, ctx.auth.companyId);
    return { status: 200, body: { items: rows.map(presentListItem) } };
  },

  createCostCenter: async ({ body }, ctx) => {
    const row = newCostCenter(ctx.auth.companyId, body.name, ctx.auth.companyClock.now().toISOString());
    // The answer is what the write stored (a keyed retry's write may have been made by an earlier attempt).
    const created = await createCostCenter(ctx.db, row, ctx.actor);
    return {
      status: 201,
      body: created,
      headers: { Location: `${ctx.config.baseUrl}/cost-centers/v1/cost-centers/${created.id}` },
    };
  },

  getCostCenter: async ({ params }, ctx) => {
    const row = await findCostCenter(ctx.db, ctx.auth.companyId, idOf(params));
    if (!row) throw costCenterNotFound();
    return { status: 200, body: present(row) };
  },

  updateCostCenter: async ({ params, body }, ctx) => {
    const row = await renameCostCenter(
      ctx.db,
      ctx.auth.companyId,
      idOf(params),
      body.name,
      ctx.auth.companyClock.now().toISOString(),
      ctx.actor,
    );
    if (!row) throw costCenterNotFound();
    return { status: 200, body: present(row) };
  },

  deleteCostCenter: async ({ params }, ctx) => {
    if (
      !(await deleteCostCenter(
        ctx.db,
        ctx.auth.companyId,
        idOf(params),
        ctx.auth.companyClock.now().toISOString(),
        ctx.actor,
      ))
    )
      throw costCenterNotFound();
    return { status: 204 };
  },
});
