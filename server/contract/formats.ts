// The contract's custom formats, registered once: how each value is checked and what a caller is
// told when it fails. Amounts marked `x-decimal-places: 2` get the two-decimals format in the
// validators' copy of the bundle (validator-spec.ts); the request validator (http/validator/validator.ts) and
// the ingest line validator (areas/statements/ingest/schema.ts) register every format from here, and
// the problems they report take its message from here.
import type { Format } from 'ajv';
import { hasAtMostTwoDecimals } from '../lib/money.js';

interface CustomFormat {
  type: 'number' | 'string';
  validate: (value: never) => boolean;
  /** What the caller is told, after the field's name. */
  message: string;
}

/** The format given to amounts with `x-decimal-places: 2`. */
export const TWO_DECIMALS = 'decimal2';

const CUSTOM_FORMATS: Record<string, CustomFormat> = {
  [TWO_DECIMALS]: {
    type: 'number',
    validate: (value: number) => hasAtMostTwoDecimals(value),
    message: 'must have at most 2 decimal places',
  },
};

/** The formats as ajv (and express-openapi-validator's `formats` option) take them. */
export const ajvFormats = (): Record<string, Format> =>
  Object.fromEntries(
    Object.entries(CUSTOM_FORMATS).map(([name, { type, validate }]) => [
      name,
      { type, validate: validate as (value: never) => boolean } as Format,
    ]),
  );

/** The message of a custom format's failure, or undefined for a standard format. */
export const formatMessage = (format: unknown): string | undefined =>
  typeof format === 'string' ? CUSTOM_FORMATS[format]?.message : undefined;
