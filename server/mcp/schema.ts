// The contract's schemas as plain JSON Schema for MCP tools: every `$ref` inlined (a tool schema
// stands alone), OpenAPI-only keywords (`x-…`, `example`, `discriminator`) dropped. A schema that
// refers to itself is cut at the repeat with an empty schema (anything).
import { resolveRef } from '../contract/bundle.js';

type Json = Record<string, unknown>;

const DROPPED = new Set(['example', 'discriminator', 'xml', 'externalDocs', 'readOnly', 'writeOnly', 'deprecated']);

/** `node` with its `$ref`s resolved against `root` (the bundle) and OpenAPI-only keywords dropped. */
export function plainSchema(root: Json, node: unknown, seen: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => plainSchema(root, item, seen));
  if (node === null || typeof node !== 'object') return node;
  const object = node as Json;
  if (typeof object.$ref === 'string') {
    if (seen.includes(object.$ref)) return {};
    const { $ref, ...siblings } = object;
    const target = plainSchema(root, resolveRef(root, { $ref }), [...seen, $ref]) as Json;
    return Object.keys(siblings).length ? { ...target, ...(plainSchema(root, siblings, seen) as Json) } : target;
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) {
    if (key.startsWith('x-') || DROPPED.has(key)) continue;
    // `properties` and `patternProperties` name fields: their keys are not keywords.
    if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(
        Object.entries(value as Json).map(([name, schema]) => [name, plainSchema(root, schema, seen)]),
      );
    } else out[key] = plainSchema(root, value, seen);
  }
  return out;
}

/** A parameter or other component object, followed through its `$ref` (the contract index's resolver). */
export const resolved = <T>(root: Json, node: unknown): T => resolveRef(root, node) as T;
