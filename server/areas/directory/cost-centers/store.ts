// Queries on the company's cost centers.
import { PLATFORM, type Actor } from '../../../kit/handler.js';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/database.js';
import type { CostCenterRow } from '../tables.js';
import { cleanName, nameKey, uniqueName } from '../names.js';
import { clearCostCenter } from '../../statements/public.js';
import { touchStatementRows } from '../../statements/public.js';
import { writeTransaction } from '../../../db/transaction.js';
import { changedAttributes, recordEvent } from '../../events/public.js';
import { presentCostCenter } from './present.js';
import { prepared } from '../../../db/prepared.js';

/** Every cost center of the company, by name (case-insensitive), then id; prepared, as it runs on every list call. */
const listQuery = prepared((db, p: { companyId: string }) =>
  db.selectFrom('cost_centers').selectAll().where('company_id', '=', p.companyId).orderBy('name_key').orderBy('id'),
);

export async function listCostCenters(db: Db, companyId: string): Promise<CostCenterRow[]> {
  return (await listQuery(db, { companyId })).rows;
}

export async function findCostCenter(db: Db, companyId: string, id: string): Promise<CostCenterRow | undefined> {
  return db
    .selectFrom('cost_centers')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A cost center row ready to insert; `responsible` is only ever set by seeding. */
export function newCostCenter(
  companyId: string,
  name: string,
  now: string,
  responsible: { id: string; name: string } | null = null,
): CostCenterRow {
  return {
    id: randomUUID(),
    company_id: companyId,
    name: cleanName(name),
    name_key: nameKey(name),
    responsible_id: responsible?.id ?? null,
    responsible_name: responsible?.name ?? null,
    created_at: now,
    updated_at: now,
  };
}

/** Inserts cost centers; a name already used in the company is 409. */
export async function insertCostCenters(db: Db, rows: CostCenterRow[]): Promise<void> {
  if (rows.length === 0) return;
  await uniqueName('cost center', () => db.insertInto('cost_centers').values(rows).execute());
}

/** Creates one cost center (409 on a taken name) and records `cost_center.created`. */
export async function createCostCenter(db: Db, row: CostCenterRow, actor: Actor): Promise<void> {
  await writeTransaction(db, async (trx) => {
    await insertCostCenters(trx, [row]);
    await recordEvent(trx, row.created_at, {
      companyId: row.company_id,
      type: 'cost_center.created',
      ...actor,
      object: presentCostCenter(row),
    });
  });
}

/** Renames a cost center; undefined when the company has no such cost center, 409 on a taken name. */
export async function renameCostCenter(
  db: Db,
  companyId: string,
  id: string,
  name: string,
  now: string,
  actor: Actor = PLATFORM,
): Promise<CostCenterRow | undefined> {
  return writeTransaction(db, async (trx) => {
    const before = await findCostCenter(trx, companyId, id);
    if (!before) return undefined;
    const after = await uniqueName('cost center', () =>
      trx
        .updateTable('cost_centers')
        .set({ name: cleanName(name), name_key: nameKey(name), updated_at: now })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    if (after.name !== before.name) await touchStatementRows(trx, companyId, 'cost_center_id', [id], { now, ...actor });
    await recordEvent(trx, now, {
      companyId,
      type: 'cost_center.updated',
      ...actor,
      object: presentCostCenter(after),
      previousAttributes: changedAttributes(presentCostCenter(before), presentCostCenter(after)),
    });
    return after;
  });
}

/** Deletes a cost center and clears it from the transactions classified with it; false when absent. */
export async function deleteCostCenter(
  db: Db,
  companyId: string,
  id: string,
  now: string,
  actor: Actor = PLATFORM,
): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const row = await findCostCenter(trx, companyId, id);
    if (!row) return false;
    await clearCostCenter(trx, companyId, id, { now, ...actor });
    await trx.deleteFrom('cost_centers').where('company_id', '=', companyId).where('id', '=', id).execute();
    await recordEvent(trx, now, { companyId, type: 'cost_center.deleted', ...actor, object: presentCostCenter(row) });
    return true;
  });
}
