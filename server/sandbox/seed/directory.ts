// Demo directory for `finance seed`: DEFAULT categories with their establishments, DEFAULT
// suppliers, some CUSTOM ones, and cost centers (some with the deprecated legacy responsible).
// Deterministic from ctx.rng and ctx.clock; a company seeded before is left as it is.
import type { Db } from '../../db/database.js';
import type { SeedContext } from './seed-context.js';
import { seededUuid, type Rng } from '../../lib/random.js';
import type { DirectoryType } from '../../areas/directory/tables.js';
import { TYPE_ID } from '../../areas/directory/store/types.js';
import { insertCostCenters, newCostCenter } from '../../areas/directory/cost-centers/store.js';
import { insertSuppliers, newSupplier } from '../../areas/directory/suppliers/store.js';
import {
  hasCategories,
  insertCategories,
  insertEstablishments,
  newCategory,
} from '../../areas/directory/categories/store/categories.js';
import {
  COST_CENTERS,
  CUSTOM_CATEGORIES,
  CUSTOM_SUPPLIERS,
  DEFAULT_CATEGORIES,
  DEFAULT_SUPPLIERS,
  LEGACY_RESPONSIBLES,
} from './directory-data.js';
import { writeTransaction } from '../../db/transaction.js';

/** `count` distinct items of `items`, in their original order. */
function sample<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, items.length)) chosen.add(rng.int(0, items.length - 1));
  return items.filter((_, i) => chosen.has(i));
}

async function seedCategories(
  db: Db,
  companyId: string,
  entries: ReadonlyArray<[string, string[]]>,
  type: DirectoryType,
  now: string,
) {
  const ids = await insertCategories(
    db,
    entries.map(([name]) => newCategory(companyId, name, type, now)),
  );
  const establishments = entries.flatMap(([, names], i) =>
    names.map((name) => ({
      company_id: companyId,
      category_id: ids[i] as number,
      name,
      type_id: TYPE_ID[type],
      created_at: now,
      updated_at: now,
    })),
  );
  await insertEstablishments(db, establishments);
}

export async function seedDirectory(db: Db, ctx: SeedContext): Promise<void> {
  const { companyId, rng } = ctx;
  if (await hasCategories(db, companyId)) return; // the directory is not duplicated by a second seed
  const now = ctx.clock.now().toISOString();

  const customCategories = sample(rng, CUSTOM_CATEGORIES, rng.int(3, CUSTOM_CATEGORIES.length));
  const customSuppliers = sample(rng, CUSTOM_SUPPLIERS, rng.int(4, CUSTOM_SUPPLIERS.length));
  const costCenters = sample(rng, COST_CENTERS, rng.int(6, COST_CENTERS.length)).map((name) => {
    const responsible = rng.chance(0.5)
      ? { id: seededUuid(rng, companyId), name: rng.pick(LEGACY_RESPONSIBLES) }
      : null;
    return { ...newCostCenter(companyId, name, now, responsible), id: seededUuid(rng, companyId) };
  });

  await writeTransaction(db, async (trx) => {
    await seedCategories(trx, companyId, DEFAULT_CATEGORIES, 'DEFAULT', now);
    await seedCategories(trx, companyId, customCategories, 'CUSTOM', now);
    await insertSuppliers(trx, [
      ...DEFAULT_SUPPLIERS.map((name) => newSupplier(companyId, name, 'DEFAULT', now)),
      ...customSuppliers.map((name) => newSupplier(companyId, name, 'CUSTOM', now)),
    ]);
    await insertCostCenters(trx, costCenters);
  });
}
