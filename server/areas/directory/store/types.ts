// The platform's catalogue of directory types (DEFAULT, CUSTOM), as the API shows it.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { DirectoryType, DirectoryTypeRow } from '../tables.js';

export const TYPE_ID: Record<DirectoryType, number> = { DEFAULT: 1, CUSTOM: 2 };

/** `{id, createdAt, updatedAt, type}`, the type of a category or establishment. */
export interface TypeInfo {
  id: number;
  createdAt: string;
  updatedAt: string;
  type: DirectoryType;
}

export type TypeCatalogue = ReadonlyMap<number, TypeInfo>;

const present = (row: DirectoryTypeRow): TypeInfo => ({
  id: row.id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  type: row.type,
});

export async function loadTypes(db: Kysely<Database>): Promise<TypeCatalogue> {
  const rows = await db.selectFrom('directory_types').selectAll().execute();
  return new Map(rows.map((row) => [row.id, present(row)]));
}

export function typeOf(types: TypeCatalogue, id: number): TypeInfo {
  const info = types.get(id);
  if (!info) throw new Error(`unknown directory type ${id}`);
  return info;
}
