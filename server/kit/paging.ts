// Keyset paging of every list operation (DESIGN §5), in one place:
//  - `limit`: its default and bounds are the operation's `limit` parameter in the contract (the
//    contract index; the server's default of 50 where the contract gives none, `listUsers`);
//  - `nextPageStartKey`: an opaque, signed cursor carrying the sort key of the previous page's last
//    row, bound to the operation, the company and the filters (anything else that shapes the query);
//  - the page: the store fetches `limit + 1` rows, `page()` keeps `limit` of them and, when more
//    follow, encodes the next cursor.
// A tampered cursor, one of another operation, another company or other filters is a 400, rendered
// in the operation's error body by the error handler.
import type { AuthContext, OperationId } from './handler.js';
import type { Config } from '../config.js';
import { badRequest } from './errors.js';
import { openCursor, signCursor } from './signing-keys.js';
import type { ContractIndex, LimitBounds } from '../contract/index.js';

type KeyPart = 'string' | 'number';
type KeyShape = readonly KeyPart[];
type Part<P> = P extends 'string' ? string : number;
type KeyOf<S extends KeyShape> = { -readonly [I in keyof S]: Part<S[I]> };

const CURSOR_MESSAGE = 'nextPageStartKey is invalid, or was issued for other filters or sorting';

const invalidCursor = () =>
  badRequest(CURSOR_MESSAGE, [{ field: 'query.nextPageStartKey', message: CURSOR_MESSAGE }], {
    reason: 'invalid_value',
    param: 'nextPageStartKey',
  });

/** The operation's `limit` parameter, from the contract index the app serves. */
function limitOf(index: ContractIndex, operationId: string): LimitBounds {
  const found = index.operation(operationId)?.limit;
  if (!found) throw new Error(`${operationId} has no limit parameter in the contract`);
  return found;
}

interface Paging<K> {
  /** The page size asked for (or the contract's default). */
  limit: number;
  /** The sort key of the previous page's last row; undefined on the first page. */
  after: K | undefined;
  /** Keeps `limit` of the `limit + 1` rows fetched; the cursor of the next page when more follow. */
  page<T>(rows: T[], keyOf: (last: T) => K): { items: T[]; nextPageStartKey?: string };
  /** The cursor of the page after the row whose sort key is `key` (for stores that cut their own page). */
  cursorAfter(key: K): string;
}

/**
 * Reads the paging of a list request. `filters` is everything besides the cursor that shapes the
 * query (normalized so that equal queries give equal values); `shape` the types of the sort key.
 */
export function paging<const S extends KeyShape>(
  operationId: OperationId,
  ctx: { auth: Pick<AuthContext, 'companyId'>; config: Pick<Config, 'secrets'>; index: ContractIndex },
  query: { limit?: number; nextPageStartKey?: string },
  filters: unknown,
  shape: S,
): Paging<KeyOf<S>> {
  const bounds = limitOf(ctx.index, operationId);
  const limit = Math.min(Math.max(query.limit ?? bounds.default, bounds.minimum), bounds.maximum);
  const scope = { op: operationId, companyId: ctx.auth.companyId, filters };
  let after: KeyOf<S> | undefined;
  if (query.nextPageStartKey !== undefined) {
    const payload = openCursor(ctx.config.secrets, scope, query.nextPageStartKey) as { k?: unknown } | undefined;
    const key = payload?.k;
    if (!Array.isArray(key) || key.length !== shape.length || !key.every((part, i) => typeof part === shape[i]))
      throw invalidCursor();
    after = key as KeyOf<S>;
  }
  const cursorAfter = (key: KeyOf<S>) => signCursor(ctx.config.secrets, scope, { k: key });
  return {
    limit,
    after,
    cursorAfter,
    page: (rows, keyOf) => {
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      if (rows.length <= limit || last === undefined) return { items };
      return { items, nextPageStartKey: cursorAfter(keyOf(last)) };
    },
  };
}
