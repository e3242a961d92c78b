// Every response carries X-Request-Id; a caller's sane id is echoed, otherwise one is generated.
// Generated ids are ULIDs (server/lib/ulid.ts).
import type { NextFunction, Request, Response } from 'express';
import { newUlid } from '../lib/ulid.js';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export const newRequestId = () => `req_${newUlid()}`;

export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SANE.test(given) ? given : newRequestId();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}

export const requestIdOf = (res: Response): string => String(res.locals.requestId ?? '');
