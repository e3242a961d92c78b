// Queries on the company's suppliers.
import { PLATFORM, type Actor } from '../../../kit/handler.js';
import type { Db } from '../../../db/database.js';
import type { DirectoryType, NewSupplier } from '../tables.js';
import {
  createEntry,
  deleteEntry,
  type IdPage,
  insertTypedEntries,
  insertTypedEntry,
  type NamedEntries,
  newTypedEntry,
  renameEntry,
} from '../store/named-store.js';
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
export async function listSuppliers(db: Db, companyId: string, page: IdPage): Promise<Supplier[]> {
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

/** DEFAULT suppliers cannot be renamed or deleted. */
const suppliers: NamedEntries<Supplier, ReturnType<typeof presentSupplier>> & { table: 'suppliers' } = {
  table: 'suppliers',
  noun: 'supplier',
  plural: 'suppliers',
  event: 'supplier',
  find: findSupplier,
  show: (_db, _companyId, rows) => rows.map(presentSupplier),
  isDefault: (supplier) => supplier.type === 'DEFAULT',
};

/** A supplier row ready to insert. */
export const newSupplier = newTypedEntry;

/** Inserts suppliers and answers their ids, in order; a name already used in the company is 409. */
export const insertSuppliers = (db: Db, rows: NewSupplier[]) => insertTypedEntries(db, suppliers, rows);

/** Creates one CUSTOM supplier (409 on a taken name), records `supplier.created`, answers it as shown. */
export const createSupplier = (db: Db, row: NewSupplier, actor: Actor) =>
  createEntry(db, suppliers, row, actor, (trx) => insertTypedEntry(trx, suppliers, row));

/** Renames a CUSTOM supplier; undefined when absent; 409 when DEFAULT or the name is taken. */
export const renameSupplier = (db: Db, companyId: string, id: number, name: string, now: string, actor = PLATFORM) =>
  renameEntry(db, suppliers, companyId, id, name, now, actor);

/** Deletes a CUSTOM supplier; false when absent; 409 when DEFAULT. */
export const deleteSupplier = (db: Db, companyId: string, id: number, now: string, actor = PLATFORM) =>
  deleteEntry(db, suppliers, companyId, id, now, actor);
