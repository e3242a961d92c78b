// The request's contract operation, found once, right after the request prelude (contract/match.ts):
// an unknown path is 404 and a known path with another method 405 with Allow, both before any
// credential check. Authentication, the media-type check, strict numbers, validation, dispatch and
// the error handler read the match kept on the response's locals.
import type { NextFunction, Request, Response } from 'express';
import type { ContractIndex, ContractOperation } from '../contract/index.js';
import { ApiError, badRequest } from '../kit/errors.js';

export interface OperationMatch {
  operation: ContractOperation;
  /** The path parameters, percent-decoded. */
  params: Record<string, string>;
}

export const NOT_FOUND_MESSAGE = 'No such resource or operation';

export function matchOperation(index: ContractIndex) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const found = index.match(req.method, req.path);
    if (found.kind === 'operation') {
      res.locals.match = { operation: found.operation, params: found.params } satisfies OperationMatch;
      return next();
    }
    if (found.kind === 'method') {
      return next(new ApiError(405, 'Method not allowed on this resource', [], { Allow: found.allow.join(', ') }));
    }
    if (found.kind === 'malformed') return next(badRequest('The path is not valid percent-encoding'));
    next(new ApiError(404, NOT_FOUND_MESSAGE, [], {}, { reason: 'unknown_path' }));
  };
}

/** The request's match (matchOperation ran first), or undefined when the contract has no such operation. */
export const matchOf = (res: Response): OperationMatch | undefined => res.locals.match as OperationMatch | undefined;

/** The request's operation, or undefined. */
export const operationOf = (res: Response): ContractOperation | undefined => matchOf(res)?.operation;
