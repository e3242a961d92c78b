// The route a request was for, as metrics, logs and traces name it: the contract's path template of
// the operation the request matched (never a raw id), else the Express route of the few paths outside
// the contract (`/health`, `/ready`, `/metrics`…), else nothing.
import type { Request, Response } from 'express';
import { operationOf } from './context.js';

export const routeOf = (req: Request, res: Response): string | undefined =>
  operationOf(res)?.path ?? (req.route as { path?: unknown } | undefined)?.path?.toString();
