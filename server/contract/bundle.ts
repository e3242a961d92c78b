// The generated contract bundles, read from disk, and the one `$ref` resolver of the runtime.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type Json = Record<string, unknown>;
type BundleName = 'internal' | 'public';

const bundlePath = (name: BundleName) =>
  fileURLToPath(new URL(`../../generated/openapi.${name}.json`, import.meta.url));

/** A fresh copy of a bundle: callers may change it (the contract index keeps its own). */
export const loadBundle = (name: BundleName): Json => JSON.parse(readFileSync(bundlePath(name), 'utf8')) as Json;

/**
 * `node` itself, or what its local `$ref` (`#/components/…`, JSON Pointer escapes honoured) points
 * to, followed through chains of references.
 */
export function resolveRef(bundle: Json, node: unknown): Json {
  let current = node as Json | undefined;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 32; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#/')) throw new Error(`only local references are supported: ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .reduce<Json | undefined>(
        (at, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')] as Json | undefined,
        bundle,
      );
  }
  return current ?? {};
}
