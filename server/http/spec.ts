// The contract as the server uses it: the internal bundle, prepared for the validator, and a route table.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Json = Record<string, unknown>;
export interface OperationRoute {
  method: string;
  /** The path template as a regular expression, one capture group per `{name}` (see pathNames). */
  pattern: RegExp;
  path: string;
  pathNames: string[];
  operationId: string;
  /** undefined: the operation needs no token; otherwise the scopes it needs (any one suffices). */
  scopes: string[] | undefined;
  /** The media types its request body may be sent as; empty when it takes no body. */
  mediaTypes: string[];
  bodyRequired: boolean;
}

const bundlePath = (name: 'internal' | 'public') =>
  fileURLToPath(new URL(`../../generated/openapi.${name}.json`, import.meta.url));

export const loadBundle = (name: 'internal' | 'public'): Json =>
  JSON.parse(readFileSync(bundlePath(name), 'utf8')) as Json;

/**
 * A copy of the bundle for express-openapi-validator: amounts marked `x-decimal-places: 2` get the
 * custom `decimal2` format (at most 2 decimal places). The contract does not say `multipleOf: 0.01`:
 * float arithmetic (ajv's and other tools') rejects 19.99 and 0.07 as multiples of 0.01.
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
      out.format = 'decimal2';
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
  const resolve = (node: Json): Json => {
    const ref = node.$ref as string | undefined;
    return ref?.startsWith('#/components/schemas/') ? resolve(schemas[ref.split('/').pop() ?? ''] ?? {}) : node;
  };
  for (const name of VALIDATED_AS_ONE) {
    const schema = schemas[name];
    const variants = (schema?.oneOf ?? schema?.anyOf) as Json[] | undefined;
    if (!schema || !variants) continue;
    schemas[name] = mergeVariants(schema, variants.map(resolve));
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

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

/**
 * The error bodies of the contract, by the schema an error response references:
 * `Error` {error, message, code, requestId, details: string[]}, `FieldError` (details as
 * {field, message}), `VcnError` {error, message, code: "<kebab-code>", requestId, errors?} and
 * `OAuthError` (RFC 6749 §5.2).
 */
export type ErrorBody = 'common' | 'field' | 'vcn' | 'oauth';

const BODY_OF_SCHEMA: Record<string, ErrorBody> = {
  ApiError: 'common',
  FieldError: 'field',
  VcnError: 'vcn',
  OAuthError: 'oauth',
};

/**
 * For every operation, the error body of each of its 4xx/5xx responses; statuses the contract does
 * not list for an operation (405, 413, 415…) take the body of its 400 response.
 */
export function errorBodies(bundle: Json): Map<string, { byStatus: Map<number, ErrorBody>; fallback: ErrorBody }> {
  const components = (bundle.components ?? {}) as { responses?: Record<string, Json> };
  const schemaName = (response: Json): string | undefined => {
    const ref = response.$ref as string | undefined;
    const resolved = ref ? (components.responses?.[ref.split('/').pop() ?? ''] ?? {}) : response;
    const content = Object.values((resolved.content ?? {}) as Record<string, { schema?: { $ref?: string } }>)[0];
    return content?.schema?.$ref?.split('/').pop();
  };
  const out = new Map<string, { byStatus: Map<number, ErrorBody>; fallback: ErrorBody }>();
  for (const item of Object.values((bundle.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const byStatus = new Map<number, ErrorBody>();
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        if (!/^[45]\d\d$/.test(status)) continue;
        byStatus.set(Number(status), BODY_OF_SCHEMA[schemaName(response) ?? ''] ?? 'common');
      }
      out.set(String(op.operationId), { byStatus, fallback: byStatus.get(400) ?? 'common' });
    }
  }
  return out;
}

/**
 * The operations of the bundle with their path patterns and required scopes; literal paths before
 * templated ones, as the router matches them (`/users/me` before `/users/{id}`).
 */
export function operationRoutes(bundle: Json): OperationRoute[] {
  const globalSecurity = bundle.security as Array<Record<string, string[]>> | undefined;
  const routes: OperationRoute[] = [];
  for (const [path, item] of Object.entries((bundle.paths ?? {}) as Record<string, Json>)) {
    const pathNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}/?$`);
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const security = (op.security ?? globalSecurity ?? []) as Array<Record<string, string[]>>;
      const scopes = security.length === 0 ? undefined : security.flatMap((req) => Object.values(req).flat());
      const body = op.requestBody as { content?: Json; required?: boolean } | undefined;
      const mediaTypes = Object.keys(body?.content ?? {});
      routes.push({
        method: method.toUpperCase(),
        pattern,
        path,
        pathNames,
        operationId: String(op.operationId),
        scopes,
        mediaTypes,
        bodyRequired: body?.required === true,
      });
    }
  }
  return routes.sort((a, b) => a.pathNames.length - b.pathNames.length);
}
