// Queries on the company's cost centers.
import { PLATFORM, type Actor } from '../../../kit/handler.js';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/database.js';
import type { CostCenterRow } from '../tables.js';
import { cleanName, nameKey, uniqueName } from '../names.js';
import { clearCostCenter } from '../../statements/public.js';
import { createEntry, deleteEntry, type NamedEntries, renameEntry } from '../store/named-store.js';
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

/** Renaming one touches the transactions classified with it; deleting one clears it from them. */
const costCenters: NamedEntries<CostCenterRow, ReturnType<typeof presentCostCenter>> = {
  table: 'cost_centers',
  noun: 'cost center',
  plural: 'cost centers',
  event: 'cost_center',
  find: findCostCenter,
  show: (_db, _companyId, rows) => rows.map(presentCostCenter),
  referencedBy: 'cost_center_id',
  release: clearCostCenter,
};

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
  await uniqueName(costCenters.noun, () => db.insertInto('cost_centers').values(rows).execute());
}

/** Creates one cost center (409 on a taken name), records `cost_center.created`, answers it as shown. */
export const createCostCenter = (db: Db, row: CostCenterRow, actor: Actor) =>
  createEntry(db, costCenters, row, actor, async (trx) => {
    await insertCostCenters(trx, [row]);
    return row;
  });

/** Renames a cost center; undefined when the company has no such cost center, 409 on a taken name. */
export const renameCostCenter = (db: Db, companyId: string, id: string, name: string, now: string, actor = PLATFORM) =>
  renameEntry(db, costCenters, companyId, id, name, now, actor);

/** Deletes a cost center and clears it from the transactions classified with it; false when absent. */
export const deleteCostCenter = (db: Db, companyId: string, id: string, now: string, actor = PLATFORM) =>
  deleteEntry(db, costCenters, companyId, id, now, actor);
