// Every response carries X-Request-Id; a caller's sane id is echoed, otherwise one is generated.
// Generated ids are ULIDs whose random part comes from a pool of cryptographic random bytes
// refilled 4 KiB at a time (ulid's default asks the system for one byte per character).
import { randomFillSync } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { ulid } from 'ulid';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

const pool = Buffer.alloc(4096);
let used = pool.length;
/** A uniform fraction in [0, 1) from the pool, as ulid expects of its random source. */
const pooledRandom = () => {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]! / 256;
};

export const newRequestId = () => `req_${ulid(undefined, pooledRandom)}`;

export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SANE.test(given) ? given : newRequestId();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}

export const requestIdOf = (res: Response): string => String(res.locals.requestId ?? '');
