// express-openapi-validator, loaded with the internal bundle: requests are always validated,
// responses when the configuration asks for it (development and tests).
import { createRequire } from 'node:module';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Config } from '../config.js';
import { hasAtMostTwoDecimals } from '../lib/money.js';
import { validatorSpec } from './spec.js';
import { compose } from './compose.js';

/**
 * express-openapi-validator 5.6 finds a request's operation by compiling every route of the
 * contract with path-to-regexp, on every request. The compilation is a pure function of the route
 * and its options, so the validator's copy of path-to-regexp gets a memoized `pathToRegexp`; the
 * regular expressions it returns are not global, so sharing them is safe.
 */
function memoizeRouteCompilation(): void {
  const pathToRegexp = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'))(
    'path-to-regexp',
  ) as {
    pathToRegexp: ((path: unknown, options?: Record<string, unknown>) => unknown) & { memoized?: boolean };
  };
  if (pathToRegexp.pathToRegexp.memoized) return;
  const compile = pathToRegexp.pathToRegexp;
  const compiled = new Map<string, unknown>();
  const memoized = (path: unknown, options?: Record<string, unknown>) => {
    if (typeof path !== 'string') return compile(path, options);
    const key = `${options?.sensitive ? 's' : ''}${options?.strict ? 't' : ''}${options?.end === false ? 'e' : ''}:${path}`;
    const canShare = !options || Object.keys(options).every((k) => k === 'sensitive' || k === 'strict' || k === 'end');
    if (!canShare) return compile(path, options);
    let result = compiled.get(key);
    if (result === undefined) compiled.set(key, (result = compile(path, options)));
    return result;
  };
  memoized.memoized = true;
  pathToRegexp.pathToRegexp = memoized;
}

/** Bodies larger than this are validated up to their first problem only (see contractValidator). */
const ALL_ERRORS_MAX_BYTES = 16 * 1024;

/** Records the size of a parsed body (the `verify` option of the body parsers). */
export const recordBodySize = (req: IncomingMessage, _res: unknown, buf: Buffer) => {
  (req as IncomingMessage & { bodyBytes?: number }).bodyBytes = buf.length;
};

/**
 * Requests are validated reporting every problem, except large bodies: reporting every unknown
 * key of a megabyte body would cost a second of CPU and a megabyte of answer, so those stop at
 * the first problem.
 */
export function contractValidator(bundle: Record<string, unknown>, config: Config) {
  memoizeRouteCompilation();
  // The validator's middlewares run in sequence (compose.ts), not as a router's layers.
  const all = compose(...validatorMiddleware(bundle, config, true));
  const first = compose(...validatorMiddleware(bundle, config, false));
  return (req: Request, res: Response, next: NextFunction) => {
    const bytes = (req as Request & { bodyBytes?: number }).bodyBytes ?? 0;
    (bytes > ALL_ERRORS_MAX_BYTES ? first : all)(req, res, next);
  };
}

function validatorMiddleware(bundle: Record<string, unknown>, config: Config, allErrors: boolean): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: validatorSpec(bundle) as never,
    validateRequests: { allErrors, allowUnknownQueryParameters: false },
    validateResponses: config.validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    validateFormats: true,
    ajvFormats: { mode: 'full' },
    formats: {
      decimal2: { type: 'number', validate: (value: number) => hasAtMostTwoDecimals(value) },
    },
    ignoreUndocumented: false,
  });
}
