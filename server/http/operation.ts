// The contract operation a request is for, found once per request (by method, then path pattern)
// and kept on the response's locals for authentication and the media-type check.
import type { NextFunction, Request, Response } from 'express';
import type { OperationRoute } from './spec.js';

export function resolveOperation(routes: OperationRoute[]) {
  const byMethod = new Map<string, OperationRoute[]>();
  for (const route of routes) byMethod.set(route.method, [...(byMethod.get(route.method) ?? []), route]);
  return (req: Request, res: Response, next: NextFunction): void => {
    const candidates = byMethod.get(req.method === 'HEAD' ? 'GET' : req.method);
    const path = req.path;
    res.locals.operation = candidates?.find((r) => r.pattern.test(path));
    next();
  };
}

/** The request's operation (resolveOperation ran first), or undefined when the contract has none. */
export const operationOf = (res: Response): OperationRoute | undefined =>
  res.locals.operation as OperationRoute | undefined;
