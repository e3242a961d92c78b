// `If-Match` on an item's PATCH, PUT and DELETE (RFC 9110 §13.1.1): the write applies only when the
// tag is the item's current `ETag`, the one its GET answers (`itemETag` of that representation).
// The item is read with its own GET handler, so the tag compared is exactly the tag a client was
// given; a stale tag, or any tag for an item that no longer exists, is 412 and the write never runs.
import type { Request } from 'express';
import type { ContractIndex } from '../../contract/index.js';
import type { ContractOperation } from '../../contract/operations.js';
import { ApiError } from '../../kit/errors.js';
import { itemETag } from '../../kit/item-etag.js';
import { tagMatches } from './etag.js';

const WRITES = new Set(['PATCH', 'PUT', 'DELETE']);

type Read = () => Promise<{ status: number; body?: unknown }>;

/** The GET of the item a write changes (same path), when the write declares `If-Match`. */
export function itemReads(index: ContractIndex): Map<string, ContractOperation> {
  const reads = new Map<string, ContractOperation>();
  for (const op of index.operations) {
    if (!WRITES.has(op.method) || !op.paramNames.header?.includes('If-Match')) continue;
    const read = index.operations.find((o) => o.method === 'GET' && o.path === op.path);
    if (read) reads.set(op.operationId, read);
  }
  return reads;
}

const preconditionFailed = (current: string | undefined) =>
  new ApiError(
    412,
    current === undefined
      ? 'The item no longer exists; If-Match cannot hold'
      : 'The item changed since the ETag you sent; read it again',
    [current === undefined ? 'If-Match: the item has no current version' : `If-Match: the current ETag is ${current}`],
    {},
    { reason: 'precondition_failed', param: 'If-Match' },
  );

/** Throws 412 unless the request's `If-Match` holds for the item as `read` answers it now. */
export async function checkIfMatch(req: Request, read: Read): Promise<void> {
  const header = req.headers['if-match'];
  if (typeof header !== 'string') return;
  let current: string | undefined;
  try {
    const reply = await read();
    if (reply.status === 200) current = itemETag(reply.body);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
  if (current === undefined || !tagMatches(header, current, 'strong')) throw preconditionFailed(current);
}
