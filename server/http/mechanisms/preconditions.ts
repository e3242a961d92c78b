// `If-Match` on an item's PATCH, PUT and DELETE (RFC 9110 §13.1.1): the write applies only when the
// tag is the item's current `ETag`, the one its GET answers (`itemETag` of that representation).
// The item is read with its own GET handler, so the tag compared is exactly the tag a client was
// given; a stale tag, or any tag for an item that no longer exists, is 412 and the write never runs.
// The tag is compared twice: before the handler (a stale tag costs nothing more), and again inside
// the write's own transaction (a guard, db/transaction.ts), where it decides: of writers racing with
// the same tag, the first to commit wins and every other finds the item changed, 412 (SQLite runs
// write transactions one at a time; on PostgreSQL the loser's serializable transaction conflicts,
// runs again, and then reads the winner's version).
import type { Request } from 'express';
import type { ContractIndex } from '../../contract/index.js';
import type { ContractOperation } from '../../contract/operations.js';
import { ApiError } from '../../kit/errors.js';
import { itemETag } from '../../kit/item-etag.js';
import { tagMatches } from './etag.js';
import type { WriteGuard } from '../../db/transaction.js';
import type { Db } from '../../db/database.js';

const WRITES = new Set(['PATCH', 'PUT', 'DELETE']);

/** The item's GET, through `db` (the write's transaction) or, without it, as any read. */
type Read = (db?: Db) => Promise<{ status: number; body?: unknown }>;

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

/** The guard of a request's `If-Match`; `held` once the write it was for has committed. */
interface Precondition extends WriteGuard {
  held: boolean;
}

async function currentTag(read: Read, db?: Db): Promise<string | undefined> {
  try {
    const reply = await read(db);
    return reply.status === 200 ? itemETag(reply.body) : undefined;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    return undefined;
  }
}

async function compare(header: string, read: Read, db?: Db): Promise<void> {
  const current = await currentTag(read, db);
  if (current === undefined || !tagMatches(header, current, 'strong')) throw preconditionFailed(current);
}

/**
 * Throws 412 unless the request's `If-Match` holds for the item as `read` answers it now; returns
 * the guard that compares it again in the write's transaction (none without `If-Match`). Only the
 * request's first write is the one the tag was for: once it committed, later ones are not compared.
 * `early`: compare before the handler too (not when the write already committed: a recovering retry).
 */
export async function checkIfMatch(req: Request, read: Read, early = true): Promise<Precondition | undefined> {
  const header = req.headers['if-match'];
  if (typeof header !== 'string') return undefined;
  if (early) await compare(header, read);
  const precondition: Precondition = {
    held: false,
    async around(trx, work) {
      if (!precondition.held) await compare(header, read, trx as unknown as Db);
      return work();
    },
    committed() {
      precondition.held = true;
    },
  };
  return precondition;
}
