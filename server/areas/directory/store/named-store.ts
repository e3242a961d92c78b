// The store of a named entry of the directory (cost center, supplier, category): rows scoped by
// company, a name unique in the company (409), and each change's event recorded in its transaction.
// Each store describes its entries once (`NamedEntries`); what only one of them does stays in its store.
import type { Transaction } from 'kysely';
import type { Actor } from '../../../kit/handler.js';
import { conflict } from '../../../kit/errors.js';
import type { Database, Db } from '../../../db/database.js';
import { writeTransaction } from '../../../db/transaction.js';
import { changedAttributes, recordEvent } from '../../events/public.js';
import { touchStatementRows } from '../../statements/public.js';
import type { DirectoryType, NewTypedEntry } from '../tables.js';
import { cleanName, idsInOrder, nameKey, uniqueName } from '../names.js';
import { TYPE_ID } from './types.js';

interface NamedRow {
  id: string | number;
  company_id: string;
  name: string;
}

/** What differs between the directory's named entries. */
export interface NamedEntries<Row extends NamedRow, Shown> {
  table: 'cost_centers' | 'suppliers' | 'categories';
  /** The entry in messages: "A cost center with this name already exists". */
  noun: string;
  /** The entries in messages: "DEFAULT suppliers cannot be renamed or deleted". */
  plural: string;
  /** The prefix of its event types: `cost_center.created`. */
  event: 'cost_center' | 'supplier' | 'category';
  /** The company's entry `id`, undefined when it has none. */
  find(db: Db, companyId: string, id: Row['id']): Promise<Row | undefined>;
  /** The entries as the API shows them, in order (the objects of their events). */
  show(db: Db, companyId: string, rows: Row[]): Shown[] | Promise<Shown[]>;
  /** A DEFAULT entry, which cannot be renamed or deleted. */
  isDefault?(row: Row): boolean;
  /** The statements' column naming the entry: its transactions come again in the feeds when it is renamed. */
  referencedBy?: 'cost_center_id' | 'custom_category_id';
  /** Frees the transactions classified with the entry before it is deleted. */
  release?(trx: Transaction<Database>, companyId: string, id: Row['id'], at: Actor & { now: string }): Promise<void>;
}

/** A keyset page in ascending id order: `limit` rows, and one more to tell whether more follow. */
export interface IdPage {
  limit: number;
  after?: [number];
}

/** 409 for DEFAULT entries `ids`. */
export const protectedEntries = (entries: { noun: string; plural: string }, ids: readonly (string | number)[]) =>
  conflict(
    `DEFAULT ${entries.plural} cannot be renamed or deleted`,
    ids.map((id) => `${entries.noun} ${id} is DEFAULT`),
  );

/** A supplier or category row ready to insert. */
export function newTypedEntry(companyId: string, name: string, type: DirectoryType, now: string): NewTypedEntry {
  return {
    company_id: companyId,
    name: cleanName(name),
    name_key: nameKey(name),
    type_id: TYPE_ID[type],
    created_at: now,
    updated_at: now,
  };
}

/** Inserts suppliers or categories and answers their ids, in order; a name already used in the company is 409. */
export async function insertTypedEntries(
  db: Db,
  entries: { table: 'suppliers' | 'categories'; noun: string },
  rows: NewTypedEntry[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const inserted = await uniqueName(entries.noun, () =>
    db.insertInto(entries.table).values(rows).returning(['id', 'name_key']).execute(),
  );
  return idsInOrder(rows, inserted);
}

/** Inserts one supplier or category (409 on a taken name) and answers it as its store reads it. */
export async function insertTypedEntry<Row extends NamedRow & { id: number }>(
  db: Db,
  entries: NamedEntries<Row, unknown> & { table: 'suppliers' | 'categories' },
  row: NewTypedEntry,
): Promise<Row> {
  const [id] = await insertTypedEntries(db, entries, [row]);
  const created = id === undefined ? undefined : await entries.find(db, row.company_id, id);
  if (!created) throw new Error(`the created ${entries.noun} was not found`);
  return created;
}

/**
 * In one transaction: `insert` writes the entry (409 on a taken name) and answers it as stored, then
 * `<event>.created` is recorded. Answers the entry as shown.
 */
export async function createEntry<Row extends NamedRow, Shown>(
  db: Db,
  entries: NamedEntries<Row, Shown>,
  row: { company_id: string; created_at: string },
  actor: Actor,
  insert: (trx: Db) => Promise<Row>,
): Promise<Shown> {
  return writeTransaction(db, async (trx) => {
    const [shown] = await entries.show(trx, row.company_id, [await insert(trx)]);
    await recordEvent(trx, row.created_at, {
      companyId: row.company_id,
      type: `${entries.event}.created`,
      ...actor,
      object: shown,
    });
    return shown!;
  });
}

/** Renames an entry; undefined when the company has none of that id; 409 when DEFAULT or the name is taken. */
export async function renameEntry<Row extends NamedRow, Shown extends object>(
  db: Db,
  entries: NamedEntries<Row, Shown>,
  companyId: string,
  id: Row['id'],
  name: string,
  now: string,
  actor: Actor,
): Promise<Row | undefined> {
  return writeTransaction(db, async (trx) => {
    const before = await entries.find(trx, companyId, id);
    if (!before) return undefined;
    if (entries.isDefault?.(before)) throw protectedEntries(entries, [id]);
    const changes = { name: cleanName(name), name_key: nameKey(name), updated_at: now };
    await uniqueName(entries.noun, () =>
      trx.updateTable(entries.table).set(changes).where('company_id', '=', companyId).where('id', '=', id).execute(),
    );
    if (entries.referencedBy && changes.name !== before.name)
      await touchStatementRows(trx, companyId, entries.referencedBy, [id], { now, ...actor });
    const after = { ...before, ...changes };
    const [shownBefore, shownAfter] = await entries.show(trx, companyId, [before, after]);
    await recordEvent(trx, now, {
      companyId,
      type: `${entries.event}.updated`,
      ...actor,
      object: shownAfter,
      previousAttributes: changedAttributes(shownBefore!, shownAfter!),
    });
    return after;
  });
}

/** Deletes an entry (freeing what it classifies first); false when the company has none of that id; 409 when DEFAULT. */
export async function deleteEntry<Row extends NamedRow, Shown>(
  db: Db,
  entries: NamedEntries<Row, Shown>,
  companyId: string,
  id: Row['id'],
  now: string,
  actor: Actor,
): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const row = await entries.find(trx, companyId, id);
    if (!row) return false;
    if (entries.isDefault?.(row)) throw protectedEntries(entries, [id]);
    const [object] = await entries.show(trx, companyId, [row]);
    await entries.release?.(trx, companyId, id, { now, ...actor });
    await trx.deleteFrom(entries.table).where('company_id', '=', companyId).where('id', '=', id).execute();
    await recordEvent(trx, now, { companyId, type: `${entries.event}.deleted`, ...actor, object });
    return true;
  });
}
