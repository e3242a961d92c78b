// Bearer-token authentication and scope checks, before anything reads the request body.
// The operation (and the scopes it needs) is found from the contract's route table; a request that
// matches no operation passes on, so the validator answers 404 or 405 for it.
import type { NextFunction, Request, Response } from 'express';
import type { Services, AuthContext } from './handler.js';
import { forbidden, unauthorized } from './errors.js';
import { findToken } from '../areas/auth/store.js';
import type { OperationRoute } from './spec.js';

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

export function findOperation(routes: OperationRoute[], method: string, path: string): OperationRoute | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  return routes.find((r) => r.method === m && r.pattern.test(path));
}

export function authenticate(services: Services, routes: OperationRoute[]) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const operation = findOperation(routes, req.method, req.path);
    if (!operation || operation.scopes === undefined) return next();
    const header = req.get('Authorization');
    if (!header) return next(unauthorized('An access token is required: send Authorization: Bearer <token>'));
    const token = BEARER.exec(header)?.[1];
    const grant = token ? await findToken(services.db, services.clock, token) : undefined;
    if (!grant) {
      return next(unauthorized('The access token is invalid or expired', 'Bearer realm="finance", error="invalid_token"'));
    }
    const needed = operation.scopes;
    if (needed.length > 0 && !needed.some((s) => grant.scopes.has(s))) {
      const error = forbidden(`This operation needs the scope ${needed.join(' or ')}`);
      error.headers['WWW-Authenticate'] = `Bearer realm="finance", error="insufficient_scope", scope="${needed.join(' ')}"`;
      return next(error);
    }
    const auth: AuthContext = grant;
    res.locals.auth = auth;
    next();
  };
}
