// Every response carries X-Request-Id; a caller's sane id is echoed, otherwise one is generated.
import type { NextFunction, Request, Response } from 'express';
import { ulid } from 'ulid';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.get('X-Request-Id');
  const id = given && SANE.test(given) ? given : `req_${ulid()}`;
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}

export const requestIdOf = (res: Response): string => String(res.locals.requestId ?? '');
