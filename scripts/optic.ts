// optic's diff engine and breaking-change ruleset, called in-process: the same code `optic diff
// old new --check` runs, without its ~2 s process start per comparison (the gate's tests run a
// dozen). Entry points are optic 1.0.x internals (the version is pinned by the lockfile); the
// CLI equivalent of one comparison is
//   OPTIC_TELEMETRY_LEVEL=off npx optic diff old.json new.json --check
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

interface OpticRuleResult {
  name: string;
  where: string;
  error?: string;
  passed: boolean;
  exempted: boolean;
  /** 0 info, 1 warn, 2 error. */
  severity: number;
}

interface OpticEndpoint {
  method: string;
  path: string;
  diffs: { trail: string; change: 'added' | 'removed' | 'changed' }[];
}

interface OpticComparison {
  /** Failed error-level rules of the breaking-change ruleset. */
  failures: OpticRuleResult[];
  /** Operations with any change. */
  endpoints: OpticEndpoint[];
}

type Config = Record<string, unknown>;
interface OpticModules {
  loadSpec(ref: string, config: Config, options: { strict: boolean; denormalize: boolean }): Promise<unknown>;
  compute(
    specs: [unknown, unknown],
    config: Config,
    options: { check: boolean; path: string },
  ): Promise<{
    specResults: { results: OpticRuleResult[] };
    changelogData: { endpoints: Record<string, OpticEndpoint> };
  }>;
  config: Config;
}

let modules: OpticModules | undefined;

function load(): OpticModules {
  if (modules) return modules;
  process.env.OPTIC_TELEMETRY_LEVEL = 'off';
  const require = createRequire(import.meta.url);
  const build = (file: string) => require(`@useoptic/optic/build/${file}`);
  readEachSourcemapOnce(require);
  readEachPointerOnce(require);
  buildEachBodyOnce(require);
  const { createOpticClient } = build('client');
  modules = {
    loadSpec: build('utils/spec-loaders').loadSpec,
    compute: build('commands/diff/compute').compute,
    // optic's default CLI configuration, minus git and the cloud: no optic.yml, so the standard
    // is optic's built-in breaking-change ruleset.
    config: {
      isDefaultConfig: true,
      root: process.cwd(),
      isAuthenticated: false,
      isInCi: false,
      client: createOpticClient('no_token'),
    },
  };
  return modules;
}

/**
 * optic's denormalizer asks a new `sourcemapReader(sourcemap)` for every pointer it rewrites, and each
 * new reader parses every file of the sourcemap into a YAML syntax tree: on our contract that was
 * ~85 % of a comparison (135 s of the gate against the released baseline). A reader depends only on
 * the sourcemap's files (it reads the ref mappings when asked), so one per sourcemap and file count
 * answers the same. The package's index reads this module's export at each call, so replacing the
 * export here reaches every caller.
 */
function readEachSourcemapOnce(require: NodeJS.Require): void {
  const module = require('@useoptic/openapi-utilities/build/openapi3/implementations/openapi3/sourcemap-reader.js') as {
    sourcemapReader: (sourcemap: { files: unknown[] }) => unknown;
  };
  const original = module.sourcemapReader;
  const readers = new WeakMap<object, { files: number; reader: unknown }>();
  module.sourcemapReader = (sourcemap) => {
    const known = readers.get(sourcemap);
    if (known?.files === sourcemap.files.length) return known.reader;
    const reader = original(sourcemap);
    readers.set(sourcemap, { files: sourcemap.files.length, reader });
    return reader;
  };
}

/** True while a comparison runs: then the two loaded documents no longer change. */
let comparing = false;

/**
 * optic's rule runner builds the facts of a body's properties again for every rule, each one's node
 * and its parent's read by JSON pointer: splitting, unescaping and walking the same pointers was
 * ~60 % of the gate against the released baseline (a CPU profile: json-pointer-helpers' get, parse,
 * unescape, pop). While a comparison runs the documents do not change (they are changed only as they
 * load, when denormalized), so a pointer's node is read once per document; a pointer's parent is a
 * function of the text alone. Callers reach these through the package's shared `jsonPointerHelpers`
 * object, so replacing its members here reaches every caller.
 */
function readEachPointerOnce(require: NodeJS.Require): void {
  // optic's own copy, as its packages resolve it (a dependency of theirs, not of this project).
  const fromOptic = createRequire(require.resolve('@useoptic/openapi-utilities'));
  const helpers = (fromOptic('@useoptic/json-pointer-helpers') as { jsonPointerHelpers: PointerHelpers })
    .jsonPointerHelpers;
  const { get, pop } = helpers;
  const nodes = new WeakMap<object, Map<string, unknown>>();
  helpers.get = (document, pointer) => {
    if (!comparing || typeof pointer !== 'string' || typeof document !== 'object' || document === null)
      return get(document, pointer);
    let known = nodes.get(document);
    if (!known) nodes.set(document, (known = new Map()));
    if (known.has(pointer)) return known.get(pointer);
    const node = get(document, pointer);
    known.set(pointer, node);
    return node;
  };
  const parents = new Map<string, string>();
  helpers.pop = (pointer) => {
    const text = pointer.toString();
    let parent = parents.get(text);
    if (parent === undefined) parents.set(text, (parent = pop(text)));
    return parent;
  };
}

/**
 * The rule runner builds a request's and a response body's facts (every property and schema of the
 * body, each copied with its node and parent) again for every rule that looks at them: after the
 * pointer reads above, that copying and its garbage were ~40 % of the gate against the released
 * baseline (createPropertyFactsWithRaw in a CPU profile). While a comparison runs, the same body node,
 * side and document give the same facts, and the rules only read them; so each is built once per
 * comparison. Callers reach them through the module's exports, so replacing those reaches every caller.
 */
function buildEachBodyOnce(require: NodeJS.Require): void {
  const fromOptic = createRequire(require.resolve('@useoptic/optic'));
  const constructors = fromOptic('@useoptic/rulesets-base/build/rule-runner/data-constructors.js') as Record<
    'createRequest' | 'createResponseBody',
    (node: object, ...rest: unknown[]) => unknown
  >;
  for (const name of ['createRequest', 'createResponseBody'] as const) {
    const original = constructors[name];
    const built = new WeakMap<object, Map<string, WeakMap<object, unknown>>>();
    constructors[name] = (node, ...rest) => {
      const spec = rest.at(-1);
      if (!comparing || typeof node !== 'object' || node === null || typeof spec !== 'object' || spec === null)
        return original(node, ...rest);
      let bySide = built.get(node);
      if (!bySide) built.set(node, (bySide = new Map()));
      const side = rest.slice(0, -1).join('\u0000');
      let bySpec = bySide.get(side);
      if (!bySpec) bySide.set(side, (bySpec = new WeakMap()));
      if (bySpec.has(spec)) return bySpec.get(spec);
      const facts = original(node, ...rest);
      bySpec.set(spec, facts);
      return facts;
    };
  }
}

interface PointerHelpers {
  get(document: unknown, pointer: string | string[]): unknown;
  pop(pointer: string): string;
}

/** Compares two OpenAPI files (JSON or YAML) with optic's breaking-change checks. */
export async function opticCompare(baseFile: string, headFile: string): Promise<OpticComparison> {
  const { loadSpec, compute, config } = load();
  const options = { strict: true, denormalize: true };
  const specs = await Promise.all([
    loadSpec(resolve(baseFile), config, options),
    loadSpec(resolve(headFile), config, options),
  ]);
  comparing = true;
  const result = await compute(specs as [unknown, unknown], config, { check: true, path: resolve(headFile) }).finally(
    () => {
      comparing = false;
    },
  );
  return {
    failures: result.specResults.results.filter((rule) => !rule.passed && !rule.exempted && rule.severity >= 2),
    endpoints: Object.values(result.changelogData.endpoints),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

// How each level of optic's per-endpoint change tree reads in a changelog line.
const levels: Record<string, (key: string) => string> = {
  queryParameters: (name) => `query parameter ${name}`,
  pathParameters: (name) => `path parameter ${name}`,
  headerParameters: (name) => `header parameter ${name}`,
  cookieParameters: (name) => `cookie parameter ${name}`,
  responses: (status) => `response ${status}`,
  headers: (name) => `header ${name}`,
  contents: (mediaType) => mediaType,
  fields: (pointer) =>
    `property ${pointer
      .replace(/^\/schema/, '')
      .replaceAll('/properties/', '.')
      .replaceAll('/items', '[]')
      .replace(/^\./, '')}`,
};

function describe(node: unknown, label: string[], out: string[]): void {
  if (!isObject(node)) return;
  for (const diff of Array.isArray(node.diffs) ? node.diffs : []) {
    if (isObject(diff))
      out.push([...label, String(diff.trail ?? '').replace(/^\//, ''), diff.change].filter(Boolean).join(' '));
  }
  for (const [key, child] of Object.entries(node)) {
    if (!isObject(child) || key === 'diffs' || key === 'rules' || key === 'examples') continue;
    const level = levels[key];
    if (level) for (const [name, item] of Object.entries(child)) describe(item, [...label, level(name)], out);
    else describe(child, key === 'request' ? [...label, 'request'] : label, out);
  }
}

/** One line per change inside a changed endpoint: `request application/json property note added`. */
export function describeEndpointChanges(endpoint: OpticEndpoint): string[] {
  const out: string[] = [];
  describe(endpoint, [], out);
  return out;
}
