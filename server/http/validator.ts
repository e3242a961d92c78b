// express-openapi-validator, loaded with the internal bundle: requests are always validated,
// responses when the configuration asks for it (development and tests).
import * as OpenApiValidator from 'express-openapi-validator';
import type { Config } from '../config.js';
import { hasAtMostTwoDecimals } from '../lib/money.js';
import { validatorSpec } from './spec.js';

export function contractValidator(bundle: Record<string, unknown>, config: Config) {
  return OpenApiValidator.middleware({
    apiSpec: validatorSpec(bundle) as never,
    validateRequests: { allErrors: true, allowUnknownQueryParameters: false },
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
