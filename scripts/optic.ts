// optic's diff engine and breaking-change ruleset, called in-process: what `optic diff old new
// --check` runs (optic 1.0.x's CLI, commands/diff/compute and utils/spec-loaders) for two files and
// no optic.yml, built from optic's own engine packages (@useoptic/openapi-io loads and checks a
// document, @useoptic/standard-rulesets holds the ruleset, @useoptic/rulesets-base runs it,
// @useoptic/openapi-utilities compares), without the CLI around them: its git, cloud, telemetry and
// capture code (~350 packages) and its ~2 s process start per comparison (the gate's tests run a
// dozen). The versions are pinned exactly in package.json; the CLI equivalent of one comparison is
//   OPTIC_TELEMETRY_LEVEL=off npx @useoptic/optic@1.0.9 diff old.json new.json --check
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

/** A loaded document as optic's comparison takes it. */
interface OpticSpec {
  jsonLike: Record<string, unknown>;
  sourcemap: unknown;
  version: string;
}

interface OpticModules {
  load(file: string): Promise<OpticSpec>;
  compare(base: OpticSpec, head: OpticSpec): Promise<{ diffs: unknown[]; results: OpticRuleResult[] }>;
  groupByEndpoint(
    specs: { from: unknown; to: unknown },
    diffs: unknown[],
    results: OpticRuleResult[],
  ): {
    endpoints: Record<string, OpticEndpoint>;
  };
}

let modules: OpticModules | undefined;

function load(): OpticModules {
  if (modules) return modules;
  const require = createRequire(import.meta.url);
  readEachSourcemapOnce(require);
  readEachPointerOnce(require);
  buildEachBodyOnce(require);
  const io = require('@useoptic/openapi-io');
  const utilities = require('@useoptic/openapi-utilities');
  const { StandardRulesets } = require('@useoptic/standard-rulesets');
  const { RuleRunner } = require('@useoptic/rulesets-base');
  modules = {
    // optic's loadSpec for a file outside git, strict and denormalized as `optic diff` loads both sides.
    async load(file) {
      const parsed = await io.parseOpenAPIWithSourcemap(file, { externalRefHeaders: [] });
      const version: string = io.checkOpenAPIVersion(parsed.jsonLike);
      if (version !== '3.0.x' && version !== '3.1.x') throw new Error(`${file}: OpenAPI ${version} is not compared`);
      io.validateOpenApiV3Document(parsed.jsonLike, parsed.sourcemap, { strictOpenAPI: true });
      const warnings: string[] = [];
      const spec = io.denormalize(
        { ...parsed, version, from: 'file', isEmptySpec: false, context: null },
        version,
        warnings,
      );
      for (const warning of warnings) process.stderr.write(`optic: ${warning}\n`);
      return spec;
    },
    // compute's rule runner for the default standard (no optic.yml, no x-optic-standard): the
    // breaking-change ruleset with its default configuration, for the base document's version.
    async compare(base, head) {
      const ruleset = await StandardRulesets['breaking-changes'].fromOpticConfig({}, { specVersion: base.version });
      if (typeof ruleset === 'string') throw new Error(`optic's breaking-change ruleset: ${ruleset}`);
      return utilities.compareSpecs(base, head, new RuleRunner([ruleset]), {});
    },
    groupByEndpoint: utilities.groupDiffsByEndpoint,
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
  const constructors = require('@useoptic/rulesets-base/build/rule-runner/data-constructors.js') as Record<
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
  const optic = load();
  const [base, head] = await Promise.all([optic.load(resolve(baseFile)), optic.load(resolve(headFile))]);
  comparing = true;
  const { diffs, results } = await optic.compare(base, head).finally(() => {
    comparing = false;
  });
  return {
    failures: results.filter((rule) => !rule.passed && !rule.exempted && rule.severity >= 2),
    endpoints: Object.values(
      optic.groupByEndpoint({ from: base.jsonLike, to: head.jsonLike }, diffs, results).endpoints,
    ),
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
