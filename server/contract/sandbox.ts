// Production has no sandbox: without the helpers (`NODE_ENV=production` unless `SANDBOX_HELPERS=true`)
// the contract the server matches requests against, and the one it serves at /openapi.json and
// renders at /docs, is the bundle less the Sandbox tag's paths, scope and schemas. A /sandbox/ path
// is then unknown like any other: 404, before any credential check. This is one step on the bundle,
// applied by the contract index (server/contract/index.ts) and to the served bundle (server/app.ts); nothing else knows about it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

type Json = Record<string, unknown>;

const SANDBOX_PATH = /^\/sandbox\//;
const SANDBOX_TAG = 'Sandbox';
const SANDBOX_SCOPE = 'sandbox:write';
/** The scope named in a list of scopes in prose, with its separator. */
const SCOPE_IN_LIST = /,\s*`sandbox:write`|`sandbox:write`,\s*/g;

/** The bundle without the sandbox: its paths, tag, tag group, scope (in the flows and in enums) and `Sandbox…` schemas. A copy. */
export function withoutSandbox(bundle: Json): Json {
  const out = structuredClone(bundle);
  const paths = (out.paths ?? {}) as Json;
  for (const path of Object.keys(paths)) if (SANDBOX_PATH.test(path)) delete paths[path];
  if (Array.isArray(out.tags)) out.tags = out.tags.filter((tag: { name?: string }) => tag.name !== SANDBOX_TAG);
  if (Array.isArray(out['x-tagGroups']))
    out['x-tagGroups'] = out['x-tagGroups'].filter((group: { name?: string }) => group.name !== SANDBOX_TAG);
  const components = (out.components ?? {}) as { schemas?: Json; securitySchemes?: Json };
  for (const name of Object.keys(components.schemas ?? {}))
    if (name.startsWith(SANDBOX_TAG)) delete components.schemas?.[name];
  // A schema listing the scopes (ScopeName) lists the sandbox's no more.
  for (const schema of Object.values(components.schemas ?? {}) as Json[])
    if (Array.isArray(schema.enum) && schema.enum.includes(SANDBOX_SCOPE))
      schema.enum = schema.enum.filter((value) => value !== SANDBOX_SCOPE);
  for (const scheme of Object.values(components.securitySchemes ?? {}) as Json[]) {
    for (const flow of Object.values((scheme.flows ?? {}) as Record<string, { scopes?: Json }>))
      if (flow.scopes) delete flow.scopes[SANDBOX_SCOPE];
  }
  return withoutScopeInLists(out) as Json;
}

/** Descriptions that list the scope among others (the first-party scopes) list the others only. */
function withoutScopeInLists(node: unknown): unknown {
  if (typeof node === 'string') return node.replaceAll(SCOPE_IN_LIST, '');
  if (Array.isArray(node)) return node.map(withoutScopeInLists);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withoutScopeInLists(value)]));
}

/** The bundle as this server matches and serves it. */
export const servedBundle = (bundle: Json, sandboxHelpers: boolean): Json =>
  sandboxHelpers ? bundle : withoutSandbox(bundle);

/** The docs page built without the sandbox, next to the full one. */
export const productionDocsPath = (docsPath: string) => resolve(dirname(docsPath), 'production.html');

/** Builds the page without the sandbox with `build(input, output)` (server/docs.ts's `buildDocs`). */
export async function buildProductionDocs(
  publicBundle: Json,
  docsPath: string,
  build: (input: string, output: string) => Promise<string>,
): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'docs-production-'));
  try {
    const input = join(work, 'openapi.public.json');
    writeFileSync(input, JSON.stringify(withoutSandbox(publicBundle)));
    await build(input, productionDocsPath(docsPath));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
