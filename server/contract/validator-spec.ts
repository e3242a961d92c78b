// The bundle as express-openapi-validator and the ingest line schema read it: amounts marked
// `x-decimal-places: 2` get the custom two-decimals format (formats.ts), and request
// bodies the contract splits into variants are checked as one permissive object.
import { resolveRef, type Json } from './bundle.js';
import { TWO_DECIMALS } from './formats.js';

/**
 * A copy of the bundle for the validators. The contract does not say `multipleOf: 0.01`: float
 * arithmetic (ajv's and other tools') rejects 19.99 and 0.07 as multiples of 0.01.
 */
export function validatorSpec(bundle: Json): Json {
  return flattenVariants(decimalFormats(bundle));
}

function decimalFormats(bundle: Json): Json {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value);
    if (out['x-decimal-places'] === 2) {
      delete out['x-decimal-places'];
      out.format = TWO_DECIMALS;
    }
    return out;
  };
  return walk(bundle) as Json;
}

/**
 * Request bodies the contract splits into variants (`oneOf`/`anyOf`), so that typed clients refuse a
 * wrong combination at compile time. The validator checks them as one permissive object instead —
 * every variant's fields, only the fields all variants require, the discriminator as an enum of its
 * values — and the area's own rules name the missing or forbidden block: a `oneOf` would answer
 * with one error per variant, which says nothing useful to the caller.
 */
const VALIDATED_AS_ONE = ['VcnCreate', 'VcnUpdate'];

function flattenVariants(bundle: Json): Json {
  const schemas = ((bundle.components ?? {}) as { schemas?: Record<string, Json> }).schemas ?? {};
  for (const name of VALIDATED_AS_ONE) {
    const schema = schemas[name];
    const variants = (schema?.oneOf ?? schema?.anyOf) as Json[] | undefined;
    if (!schema || !variants) continue;
    schemas[name] = mergeVariants(
      schema,
      variants.map((variant) => resolveRef(bundle, variant)),
    );
  }
  return bundle;
}

/** One object schema accepting what any variant accepts, fields in the variants' relative order. */
function mergeVariants(schema: Json, variants: Json[]): Json {
  const { oneOf: _oneOf, anyOf: _anyOf, discriminator, ...rest } = schema;
  const order: string[] = [];
  const properties: Record<string, unknown> = {};
  for (const variant of variants) {
    const keys = Object.keys((variant.properties ?? {}) as Json);
    keys.forEach((key, i) => {
      if (key in properties) return;
      properties[key] = (variant.properties as Json)[key];
      // Before the next field of this variant the merged schema already has, else at the end.
      const successor = keys.slice(i + 1).find((k) => order.includes(k));
      order.splice(successor === undefined ? order.length : order.indexOf(successor), 0, key);
    });
  }
  const tag = discriminator as { propertyName?: string; mapping?: Record<string, string> } | undefined;
  if (tag?.propertyName && tag.mapping) {
    const { const: _const, examples: _examples, ...property } = properties[tag.propertyName] as Json;
    properties[tag.propertyName] = { ...property, enum: Object.keys(tag.mapping) };
  }
  const required = ((variants[0]?.required ?? []) as string[]).filter((key) =>
    variants.every((variant) => ((variant.required ?? []) as string[]).includes(key)),
  );
  return {
    ...rest,
    type: 'object',
    additionalProperties: false,
    ...(required.length > 0 ? { required } : {}),
    properties: Object.fromEntries(order.map((key) => [key, properties[key]])),
  };
}
