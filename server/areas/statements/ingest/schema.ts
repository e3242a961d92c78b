// Ingest lines are validated against the contract's own transaction schemas (from the internal
// bundle), less the fields the platform assigns. Money keeps the contract's 2-decimal rule.
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ContractIndex } from '../../../contract/index.js';
import { ajvFormats, formatMessage } from '../../../contract/formats.js';

type Json = Record<string, unknown>;
// CommonJS packages: their export is under `default` when loaded from ESM.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

/** Fields of a statement item that the platform assigns: an ingest line must not carry them. */
const ASSIGNED = {
  BankingTransaction: [
    'id',
    'companyId',
    'statusDescription',
    'showReceipt',
    'attachments',
    'metadata',
    'accountingSync',
  ],
  CreditCardTransaction: ['type', 'statusDescription', 'billDueDate', 'attachments', 'metadata', 'accountingSync'],
} as const;

type IngestSchema = keyof typeof ASSIGNED;

function ingestVariant(schema: Json, assigned: readonly string[]): Json {
  const properties = { ...(schema.properties as Json) };
  for (const name of assigned) delete properties[name];
  const required = (schema.required as string[]).filter((name) => !assigned.includes(name));
  return { ...schema, properties, required, additionalProperties: false };
}

/** Compiles one validator per statement, from the contract the service serves. */
export function compileValidators(index: ContractIndex): Record<IngestSchema, ValidateFunction> {
  const spec = index.validatorSpec() as { components: { schemas: Json } };
  const schemas = { ...spec.components.schemas };
  for (const [name, assigned] of Object.entries(ASSIGNED)) {
    schemas[`${name}Ingest`] = ingestVariant(schemas[name] as Json, assigned);
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv, { mode: 'full' });
  for (const [name, format] of Object.entries(ajvFormats())) ajv.addFormat(name, format);
  ajv.addSchema({ $id: 'contract', components: { schemas } });
  return {
    BankingTransaction: ajv.compile({ $ref: 'contract#/components/schemas/BankingTransactionIngest' }),
    CreditCardTransaction: ajv.compile({ $ref: 'contract#/components/schemas/CreditCardTransactionIngest' }),
  };
}

/** The line's problems in words, from ajv's structured errors (keyword, params, path). */
export const describeErrors = (errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map((e) => {
    const where = `transaction${e.instancePath.replace(/\//g, '.')}`;
    const custom = e.keyword === 'format' ? formatMessage(e.params.format) : undefined;
    if (custom) return `${where} ${custom}`;
    if (e.keyword === 'additionalProperties')
      return `${where} has an unknown or platform-assigned field ${String(e.params.additionalProperty)}`;
    return `${where} ${e.message ?? 'is invalid'}`;
  });
