// Queries on the company's suppliers.
import { PLATFORM, type Actor } from '../../../kit/handler.js';
import type { Db } from '../../../db/database.js';
import { conflict } from '../../../kit/errors.js';
import type { DirectoryType, NewSupplier } from '../tables.js';
import { cleanName, idsInOrder, nameKey, uniqueName } from '../names.js';
import { TYPE_ID } from '../store/types.js';
import { writeTransaction } from '../../../db/transaction.js';
import { changedAttributes, recordEvent } from '../../events/public.js';
import { presentSupplier } from './present.js';

interface Supplier {
  id: number;
  company_id: string;
  name: string;
  type_id: number;
  type: DirectoryType;
}

const selectSuppliers = (db: Db, companyId: string) =>
  db
    .selectFrom('suppliers as s')
    .innerJoin('directory_types as t', 't.id', 's.type_id')
    .select(['s.id', 's.company_id', 's.name', 's.type_id', 't.type'])
    .where('s.company_id', '=', companyId);

/** A page in ascending id order, with one extra row to tell whether more follow. */
export async function listSuppliers(
  db: Db,
  companyId: string,
  page: { limit: number; after?: [number] },
): Promise<Supplier[]> {
  let query = selectSuppliers(db, companyId);
  if (page.after) query = query.where('s.id', '>', page.after[0]);
  return query
    .orderBy('s.id')
    .limit(page.limit + 1)
    .execute();
}

export async function findSupplier(db: Db, companyId: string, id: number): Promise<Supplier | undefined> {
  return selectSuppliers(db, companyId).where('s.id', '=', id).executeTakeFirst();
}

export function newSupplier(companyId: string, name: string, type: DirectoryType, now: string): NewSupplier {
  return {
    company_id: companyId,
    name: cleanName(name),
    name_key: nameKey(name),
    type_id: TYPE_ID[type],
    created_at: now,
    updated_at: now,
  };
}

/** Inserts suppliers and answers their ids, in order; a name already used in the company is 409. */
export async function insertSuppliers(db: Db, rows: NewSupplier[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await uniqueName('supplier', () =>
    db.insertInto('suppliers').values(rows).returning(['id', 'name_key']).execute(),
  );
  return idsInOrder(rows, inserted);
}

/** Creates one CUSTOM supplier (409 on a taken name), records `supplier.created`, answers it. */
export async function createSupplier(db: Db, row: NewSupplier, actor: Actor): Promise<Supplier> {
  return writeTransaction(db, async (trx) => {
    const [id] = await insertSuppliers(trx, [row]);
    const created = id === undefined ? undefined : await findSupplier(trx, row.company_id, id);
    if (!created) throw new Error('the created supplier was not found');
    await recordEvent(trx, row.created_at, {
      companyId: row.company_id,
      type: 'supplier.created',
      ...actor,
      object: presentSupplier(created),
    });
    return created;
  });
}

const protectedSupplier = (id: number) =>
  conflict('DEFAULT suppliers cannot be renamed or deleted', [`supplier ${id} is DEFAULT`]);

/** Renames a CUSTOM supplier; undefined when absent; 409 when DEFAULT or the name is taken. */
export async function renameSupplier(
  db: Db,
  companyId: string,
  id: number,
  name: string,
  now: string,
  actor: Actor = PLATFORM,
): Promise<Supplier | undefined> {
  return writeTransaction(db, async (trx) => {
    const supplier = await findSupplier(trx, companyId, id);
    if (!supplier) return undefined;
    if (supplier.type === 'DEFAULT') throw protectedSupplier(id);
    await uniqueName('supplier', () =>
      trx
        .updateTable('suppliers')
        .set({ name: cleanName(name), name_key: nameKey(name), updated_at: now })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute(),
    );
    const renamed = { ...supplier, name: cleanName(name) };
    await recordEvent(trx, now, {
      companyId,
      type: 'supplier.updated',
      ...actor,
      object: presentSupplier(renamed),
      previousAttributes: changedAttributes(presentSupplier(supplier), presentSupplier(renamed)),
    });
    return renamed;
  });
}

/** Deletes a CUSTOM supplier; false when absent; 409 when DEFAULT. */
export async function deleteSupplier(
  db: Db,
  companyId: string,
  id: number,
  now: string,
  actor: Actor = PLATFORM,
): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const supplier = await findSupplier(trx, companyId, id);
    if (!supplier) return false;
    if (supplier.type === 'DEFAULT') throw protectedSupplier(id);
    await trx.deleteFrom('suppliers').where('company_id', '=', companyId).where('id', '=', id).execute();
    await recordEvent(trx, now, { companyId, type: 'supplier.deleted', ...actor, object: presentSupplier(supplier) });
    return true;
  });
}
