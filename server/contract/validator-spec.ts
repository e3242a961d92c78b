// The bundle as express-openapi-validator and the ingest line schema read it: amounts marked
// `x-decimal-places: 2` get the custom two-decimals format (formats.ts), request bodies the
// contract splits into variants are checked as one permissive object or by the variant they are
// closest to, and query values are read as clients send them.
import { resolveRef, type Json } from './bundle.js';
import { TWO_DECIMALS } from './formats.js';

/**
 * A copy of the bundle for the validators. The contract does not say `multipleOf: 0.01`: float
 * arithmetic (ajv's and other tools') rejects 19.99 and 0.07 as multiples of 0.01.
 */
export function validatorSpec(bundle: Json): Json {
  return deepObjectsKnown(queryAsSent(chooseVariants(flattenVariants(decimalFormats(bundle)))));
}

/**
 * A request body that is one item or a batch of them (`oneOf` of two variants, one of which requires
 * a field the other does not have: the sandbox's `{transactions: [...]}`) is checked against the
 * variant its shape chose — `if` it has that field, the batch, `else` the item — so a wrong field is
 * explained once, in the terms of what was sent; a `oneOf` would add every complaint of the other
 * variant (a missing `transactions` beside an item's own errors, an item's field unknown to a batch).
 */
function chooseVariants(bundle: Json): Json {
  for (const item of Object.values((bundle.paths ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(item)) {
      const body = (operation as Json | undefined)?.requestBody as Json | undefined;
      const media = ((body?.content ?? {}) as Record<string, Json>)['application/json'];
      const schema = media?.schema as Json | undefined;
      const variants = schema?.oneOf as Json[] | undefined;
      if (!media || !variants || variants.length !== 2) continue;
      const [a, b] = variants.map((variant) => resolveRef(bundle, variant));
      const marker = (one: Json, other: Json) =>
        ((one.required ?? []) as string[]).find((key) => !(key in ((other.properties ?? {}) as Json)));
      const [first, second] = variants as [Json, Json];
      const aMarker = marker(a!, b!);
      const bMarker = marker(b!, a!);
      if (aMarker === undefined && bMarker === undefined) continue;
      const [chosenBy, then, otherwise] = aMarker !== undefined ? [aMarker, first, second] : [bMarker!, second, first];
      const { oneOf: _oneOf, ...rest } = schema!;
      media.schema = { ...rest, if: { type: 'object', required: [chosenBy] }, then, else: otherwise };
    }
  }
  return bundle;
}

/**
 * Every query parameter allows reserved characters. The validator otherwise refuses a value with any
 * of `:/?#[]@!$&'()*+,;=` unencoded — but `+` is how form encoding (URLSearchParams, Python's
 * urlencode, HTML forms) sends a space, and `encodeURIComponent` (and so the typed client) leaves
 * `*`, `(`, `)`, `'` and `!` as they are. The query parser (app.ts: `simple`) already reads them as
 * those clients mean them: `q=uber+trip` is `uber trip`, `q=UBER%20*TRIP` is `UBER *TRIP`.
 */
function queryAsSent(bundle: Json): Json {
  const allow = (parameter: unknown) => {
    if (parameter && typeof parameter === 'object' && (parameter as Json).in === 'query')
      (parameter as Json).allowReserved = true;
  };
  const components = (bundle.components ?? {}) as { parameters?: Record<string, Json> };
  for (const parameter of Object.values(components.parameters ?? {})) allow(parameter);
  for (const item of Object.values((bundle.paths ?? {}) as Record<string, Json>)) {
    for (const operation of [item, ...Object.values(item)]) {
      const parameters = (operation as Json | undefined)?.parameters;
      if (Array.isArray(parameters)) parameters.forEach(allow);
    }
  }
  return bundle;
}

/**
 * A deepObject query parameter of any keys (`metadata[erp_id]=JE-1`: `additionalProperties` a schema)
 * is checked with the same schema under `patternProperties` instead. The validator skips its unknown-
 * and empty-parameter checks for every parameter of an operation that has an object parameter with
 * `additionalProperties`: `isConcilied=true` would pass unread beside it.
 */
function deepObjectsKnown(bundle: Json): Json {
  const components = (bundle.components ?? {}) as { parameters?: Record<string, Json> };
  for (const parameter of Object.values(components.parameters ?? {})) {
    const schema = parameter.schema as Json | undefined;
    const values = schema?.additionalProperties;
    if (parameter.style !== 'deepObject' || !schema || typeof values !== 'object') continue;
    parameter.schema = { ...schema, additionalProperties: false, patternProperties: { '^': values } };
  }
  return bundle;
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
