// Keyset paging by one string id for the event, webhook and card lists: signed cursors bound to
// the list, the company and the filters (http/cursor.ts).
import { badRequest } from './errors.js';
import { decodeCursor, pageOf } from './cursor.js';

export const DEFAULT_PAGE_SIZE = 50;

/** The id after which the page starts, from `nextPageStartKey`; undefined on the first page. */
export function afterIdOf(secret: Buffer, scope: unknown, token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  const key = decodeCursor(secret, scope, token);
  const [id] = key;
  if (key.length !== 1 || typeof id !== 'string') throw badRequest('nextPageStartKey is invalid, or was issued for another list');
  return id;
}

/** The page of `limit + 1` fetched rows, with the key of the next page when more follow. */
export function idPage<T>(secret: Buffer, scope: unknown, rows: T[], limit: number, idOf: (row: T) => string) {
  const { items, nextPageStartKey } = pageOf(secret, scope, rows, limit, (last) => [idOf(last)]);
  return { items, ...(nextPageStartKey ? { nextPageStartKey } : {}) };
}
