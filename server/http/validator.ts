// express-openapi-validator, loaded with the internal bundle: requests are always validated,
// responses when the configuration asks for it (development and tests).
import type { IncomingMessage } from 'node:http';
import { Router, type NextFunction, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Config } from '../config.js';
import { hasAtMostTwoDecimals } from '../lib/money.js';
import { validatorSpec } from './spec.js';

/** Bodies larger than this are validated up to their first problem only (see contractValidator). */
export const ALL_ERRORS_MAX_BYTES = 16 * 1024;

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
  const all = Router().use(validatorMiddleware(bundle, config, true));
  const first = Router().use(validatorMiddleware(bundle, config, false));
  return (req: Request, res: Response, next: NextFunction) => {
    const bytes = (req as Request & { bodyBytes?: number }).bodyBytes ?? 0;
    (bytes > ALL_ERRORS_MAX_BYTES ? first : all)(req, res, next);
  };
}

function validatorMiddleware(bundle: Record<string, unknown>, config: Config, allErrors: boolean) {
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
