// Names of cost centers, suppliers and categories: stored trimmed, compared trimmed and case-insensitively.
import { conflict } from '../../kit/errors.js';
import { isUniqueViolation } from '../../db/errors.js';

/** The stored form of a name: Unicode-normalized (NFC) and trimmed. */
export const cleanName = (name: string): string => name.normalize('NFC').trim();

/** The comparison form kept in `name_key` under a per-company unique index. */
export const nameKey = (name: string): string => cleanName(name).toLowerCase();

/**
 * Runs a write that may collide on `name_key`; a collision becomes 409. The unique index is the
 * only arbiter, so of two concurrent writers of one name exactly one wins, even across processes.
 */
export async function uniqueName<T>(entry: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict(`A ${entry} with this name already exists`, ['name: already in use'], {
        reason: 'already_exists',
        param: 'name',
      });
    throw err;
  }
}

/** The ids of inserted rows in the order of `rows` (RETURNING order is unspecified), matched by `name_key`. */
export function idsInOrder(
  rows: ReadonlyArray<{ name_key: string }>,
  inserted: ReadonlyArray<{ id: number; name_key: string }>,
): number[] {
  const byKey = new Map(inserted.map((row) => [row.name_key, row.id]));
  return rows.map((row) => {
    const id = byKey.get(row.name_key);
    if (id === undefined) throw new Error(`no id returned for ${row.name_key}`);
    return id;
  });
}
