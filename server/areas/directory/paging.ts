// Keyset paging of the directory lists (suppliers, categories): ascending id, opaque signed cursors.
import { badRequest } from '../../http/errors.js';
import { decodeCursor, pageOf as keysetPage } from '../../http/cursor.js';

export const DEFAULT_PAGE_SIZE = 50;

export interface PageRequest {
  limit: number;
  /** Rows with an id greater than this one. */
  afterId?: number;
}

/** The cursor's scope: the list and the company, so a key works only where it was issued. */
const scopeOf = (list: string, companyId: string) => ({ op: list, companyId });

/** Reads `limit` and `nextPageStartKey`; a forged key, or one of another list, is 400. */
export function pageRequest(secret: Buffer, list: string, companyId: string, query: { limit?: number; nextPageStartKey?: string }): PageRequest {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (query.nextPageStartKey === undefined) return { limit };
  const key = decodeCursor(secret, scopeOf(list, companyId), query.nextPageStartKey);
  const [afterId] = key;
  if (key.length !== 1 || typeof afterId !== 'number' || !Number.isSafeInteger(afterId)) {
    throw badRequest('nextPageStartKey is invalid, or was issued for another list');
  }
  return { limit, afterId };
}

/**
 * Cuts the `limit + 1` rows fetched into the page and, when more follow, the key of the next one.
 */
export function pageOf<T extends { id: number }>(secret: Buffer, list: string, companyId: string, rows: T[], limit: number) {
  return keysetPage(secret, scopeOf(list, companyId), rows, limit, (last) => [last.id]);
}
