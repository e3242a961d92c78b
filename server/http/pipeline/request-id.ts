// Every response carries X-Request-Id; a caller's sane id is echoed, otherwise one is generated.
// Generated ids are ULIDs (server/lib/ulid.ts).
import type { Request, Response } from 'express';
import { newUlid } from '../../lib/ulid.js';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export const newRequestId = () => `req_${newUlid()}`;

/** The request's id (the caller's, when sane), answered in X-Request-Id. */
export function assignRequestId(req: Request, res: Response): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SANE.test(given) ? given : newRequestId();
  res.setHeader('X-Request-Id', id);
  return id;
}

export { requestIdOf } from './context.js';
