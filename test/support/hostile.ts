// Hostile requests generated from the contract: for every operation, its example request with one
// part replaced by something wrong — a wrong type, a bound ±1, a huge or non-finite number, a
// long or odd unicode string, an injection string, unknown and `__proto__` properties, deep JSON,
// a wrong content type. Deterministic for a given seed (fast-check's generators).
import fc from 'fast-check';

export type Json = Record<string, unknown>;

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  /** undefined when the operation needs no token. */
  security: boolean;
  parameters: Array<{ name: string; in: string; required?: boolean; schema: Json; style?: string; explode?: boolean }>;
  /** Media type → schema and example of the request body. */
  body?: { mediaType: string; schema: Json; example: unknown };
  responses: Record<string, Json>;
}

export interface Candidate {
  operation: Operation;
  /** What was made hostile, for the failure message. */
  label: string;
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string;
}

/** Resolves every `$ref` of the bundle (cycles kept as the last resolved node). */
function dereference(bundle: Json): Json {
  const lookup = (ref: string): unknown =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')], bundle);
  const seen = new Map<string, unknown>();
  const walk = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, depth));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string') {
      if (depth > 20) return {};
      if (!seen.has(ref)) seen.set(ref, walk(lookup(ref), depth + 1));
      return seen.get(ref);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, depth)]));
  };
  return walk(bundle, 0) as Json;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

export function operationsOf(bundle: Json): Operation[] {
  const resolved = dereference(bundle);
  const globalSecurity = (resolved.security ?? []) as unknown[];
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(resolved.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
      const [mediaType, media] = Object.entries(content)[0] ?? [];
      const example = media
        ? (media.example ?? Object.values((media.examples ?? {}) as Record<string, Json>)[0]?.value)
        : undefined;
      ops.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId),
        security: ((op.security ?? globalSecurity) as unknown[]).length > 0,
        parameters: [
          ...((item.parameters ?? []) as Operation['parameters']),
          ...((op.parameters ?? []) as Operation['parameters']),
        ],
        body: mediaType
          ? {
              mediaType,
              schema: (media!.schema ?? {}) as Json,
              example: example ?? exampleOf((media!.schema ?? {}) as Json),
            }
          : undefined,
        responses: op.responses as Record<string, Json>,
      });
    }
  }
  return ops;
}

/** A plausible value of `schema`: its example, else one built from its type. */
function exampleOf(schema: Json): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variants = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  if (variants?.length) return exampleOf(variants[0]!);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set((schema.required ?? []) as string[]);
      return Object.fromEntries(
        Object.entries(props)
          .filter(([k]) => required.has(k))
          .map(([k, v]) => [k, exampleOf(v)]),
      );
    }
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 1) }, () => exampleOf((schema.items ?? {}) as Json));
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      if (schema.format === 'date') return '2026-11-20';
      if (schema.format === 'date-time') return '2026-11-20T12:00:00-03:00';
      if (schema.format === 'email') return 'ana@example.com';
      if (schema.format === 'uuid') return '6f1c1a52-3a4b-4c1e-9a51-0b7c5c0f2a11';
      return 'x'.repeat(Number(schema.minLength ?? 1));
  }
}

const FIXED_STRINGS = [
  '',
  ' ',
  '0x31',
  '1e1',
  '1e309',
  '-1',
  'NaN',
  'Infinity',
  '-0',
  '9007199254740993',
  'true',
  'null',
  '[]',
  '{}',
  "' OR '1'='1' --",
  '"; DROP TABLE companies; --',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text
  '${7*7}',
  '{{7*7}}',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\ud800',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '🧾💸'.repeat(50),
  'e\u0301'.repeat(100),
  'x'.repeat(5_000),
  'a,b,c',
  'constructor',
  '__proto__',
  'toString',
];

/** Numbers around and beyond the bounds of `schema`, and numbers no JSON parser should love. */
function hostileNumbers(schema: Json): unknown[] {
  // biome-ignore lint/correctness/noPrecisionLoss: numbers past 2^53 are the probe
  const out: unknown[] = [1e308, -1e308, 9007199254740993, -0, 0.001, 1.5, 2147483648, -2147483649];
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    const bound = schema[key];
    if (typeof bound === 'number') out.push(bound - 1, bound + 1, bound - 0.01, bound + 0.01, bound);
  }
  return out;
}

function hostileStrings(schema: Json, seed: number): string[] {
  const out = [...FIXED_STRINGS];
  for (const key of ['minLength', 'maxLength']) {
    const n = schema[key];
    if (typeof n === 'number') out.push('x'.repeat(Math.max(0, n - 1)), 'x'.repeat(n + 1));
  }
  out.push(...fc.sample(fc.string({ unit: 'binary', maxLength: 40 }), { seed, numRuns: 4 }));
  out.push(
    ...fc.sample(fc.string({ unit: 'grapheme-composite', minLength: 1, maxLength: 20 }), {
      seed: seed + 1,
      numRuns: 2,
    }),
  );
  return out;
}

/** Bound ±1 values of `schema` (numbers and lengths): always tried. */
function boundValues(schema: Json): unknown[] {
  const out: unknown[] = [];
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    const bound = schema[key];
    if (typeof bound === 'number') out.push(bound - 1, bound + 1, bound + 0.001);
  }
  for (const key of ['minLength', 'maxLength']) {
    const n = schema[key];
    if (typeof n === 'number') out.push('x'.repeat(Math.max(0, n - 1)), 'x'.repeat(n + 1));
  }
  for (const key of ['minItems', 'maxItems']) {
    const n = schema[key];
    if (typeof n === 'number')
      out.push(
        Array.from({ length: Math.max(0, key === 'minItems' ? n - 1 : n + 1) }, () =>
          exampleOf((schema.items ?? {}) as Json),
        ),
      );
  }
  return out;
}

/**
 * Values to put where a value of `schema` belongs: always a wrong type, null, bounds ±1 and
 * non-finite-on-parse numbers; then `extra` more picked by the seed from the hostile catalogue.
 */
function hostileValues(schema: Json, seed: number, extra = 8): unknown[] {
  const always: unknown[] = [null, [], {}, true, 1e308, '1e309', '\ud800', 'x'.repeat(5_000), ...boundValues(schema)];
  if (schema.format === 'date') always.push('0000-01-01', '9999-12-31', '2026-02-29', '2024-02-29');
  const pool: unknown[] = [
    [[[[]]]],
    ...hostileNumbers(schema),
    ...hostileStrings(schema, seed),
    ...fc.sample(fc.jsonValue({ maxDepth: 3 }), { seed: seed + 2, numRuns: 3 }),
  ];
  const picks = fc.sample(fc.integer({ min: 0, max: pool.length - 1 }), { seed, numRuns: extra }).map((i) => pool[i]);
  return [...always, ...picks];
}

/** encodeURIComponent that also sends lone surrogates, as the invalid UTF-8 bytes a client could send. */
const encode = (text: string): string => {
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .split('')
      .map((ch) => (/[\ud800-\udfff]/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch)))
      .join('');
  }
};

const encodeQuery = (entries: Array<[string, string]>) =>
  entries.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');

const asQueryValue = (value: unknown, schema: Json): string => {
  if (Array.isArray(value) && schema.type === 'array') return value.map(String).join(',');
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/** A real id for the path parameter `name` of `path`, when there is one. */
export type PathIds = (path: string, name: string) => string | undefined;

/** The example request of `op`: path ids from `ids`, required query parameters, the body example. */
function baseline(op: Operation, ids: PathIds) {
  const pathParams = Object.fromEntries(
    op.parameters
      .filter((p) => p.in === 'path')
      .map((p) => [p.name, ids(op.path, p.name) ?? String(exampleOf(p.schema))]),
  );
  const query: Array<[string, string]> = op.parameters
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => [p.name, asQueryValue(exampleOf(p.schema), p.schema)]);
  return { pathParams, query };
}

const fillPath = (path: string, params: Record<string, string>) =>
  path.replace(/\{([^}]+)\}/g, (_m, name: string) => encode(params[name] ?? 'x'));

const encodeBody = (mediaType: string, value: unknown): string => {
  if (mediaType === 'application/x-www-form-urlencoded') {
    return new URLSearchParams(
      Object.entries((value ?? {}) as Json).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    ).toString();
  }
  return JSON.stringify(value);
};

/** The request `c` sends: two candidates with the same one (the same bytes under two labels) test the same thing. */
/** A candidate's request, as text: what it sends, not why. */
export const requestOf = (c: Candidate): string =>
  JSON.stringify([c.method, c.path, c.query, c.headers, c.body ?? null]);

/**
 * The candidates whose request is not in `sent`, once each, their requests added to it. Seeds share
 * most candidates (every fixed value, bound and big body; only the seeded picks differ), so a run
 * over several seeds sends each distinct request once: the second seed adds ~1,400 to the first's ~4,300.
 */
export function unsent(candidates: Candidate[], sent: Set<string>): Candidate[] {
  return candidates.filter((c) => {
    const request = requestOf(c);
    if (sent.has(request)) return false;
    sent.add(request);
    return true;
  });
}

/** Every hostile candidate of `op`. `ids` gives real path ids where the caller has them. */
export function candidatesOf(op: Operation, ids: PathIds, seed: number): Candidate[] {
  const { pathParams, query } = baseline(op, ids);
  const out: Candidate[] = [];
  const jsonBody = op.body && op.body.mediaType === 'application/json';
  const baseHeaders: Record<string, string> = op.body ? { 'Content-Type': op.body.mediaType } : {};
  const baseBody = op.body
    ? op.body.mediaType.startsWith('application/') && !op.body.mediaType.includes('pdf')
      ? encodeBody(op.body.mediaType, op.body.example)
      : '%PDF-1.4\n'
    : undefined;
  const make = (label: string, parts: Partial<Omit<Candidate, 'operation' | 'label'>>): Candidate => ({
    operation: op,
    label,
    method: op.method,
    path: fillPath(op.path, pathParams),
    query: encodeQuery(query),
    headers: baseHeaders,
    body: baseBody,
    ...parts,
  });

  // Path parameters.
  for (const p of op.parameters.filter((x) => x.in === 'path')) {
    for (const v of hostileValues(p.schema, seed, 12)) {
      const value = typeof v === 'string' ? v : JSON.stringify(v);
      if (value === '' || value.length > 2_000) continue;
      out.push(
        make(`path ${p.name}=${JSON.stringify(value).slice(0, 40)}`, {
          path: fillPath(op.path, { ...pathParams, [p.name]: value }),
        }),
      );
    }
  }
  // Query parameters, one at a time, and unknown ones.
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    const rest = query.filter(([k]) => k !== p.name);
    for (const value of hostileValues(p.schema, seed)) {
      const text = asQueryValue(value, p.schema);
      if (text.length > 2_000) continue;
      out.push(make(`query ${p.name}=${text.slice(0, 40)}`, { query: encodeQuery([...rest, [p.name, text]]) }));
    }
    out.push(make(`query ${p.name} twice`, { query: encodeQuery([...rest, [p.name, '1'], [p.name, '2']]) }));
  }
  // Every date filter at once at the ends of the calendar (they may be required together).
  const dates = op.parameters.filter((x) => x.in === 'query' && x.schema.format === 'date');
  if (dates.length > 0) {
    for (const [label, values] of [
      ['far future', ['9999-12-31', '9999-12-31']],
      ['far past', ['0000-01-01', '0000-01-01']],
      ['whole calendar', ['0000-01-01', '9999-12-31']],
    ] as const) {
      const rest = query.filter(([k]) => !dates.some((d) => d.name === k));
      out.push(
        make(`dates ${label}`, {
          query: encodeQuery([...rest, ...dates.map((d, i): [string, string] => [d.name, values[Math.min(i, 1)]!])]),
        }),
      );
    }
  }
  out.push(
    make('unknown query parameter', { query: encodeQuery([...query, ['__proto__[x]', '1'], ['unknown', '1']]) }),
  );

  if (op.body) {
    const example = (op.body.example ?? {}) as Json;
    if (jsonBody) {
      // Each property of the example (top level and one level down) made hostile.
      const targets: Array<{ label: string; set: (v: unknown) => unknown; schema: Json }> = [];
      const props = (op.body.schema.properties ?? {}) as Record<string, Json>;
      for (const [key, schema] of Object.entries(props)) {
        targets.push({ label: `body.${key}`, schema, set: (v) => ({ ...example, [key]: v }) });
        const inner = (schema.properties ?? {}) as Record<string, Json>;
        const innerExample = (example[key] ?? exampleOf(schema)) as Json;
        for (const [k2, s2] of Object.entries(inner)) {
          targets.push({
            label: `body.${key}.${k2}`,
            schema: s2,
            set: (v) => ({ ...example, [key]: { ...(typeof innerExample === 'object' ? innerExample : {}), [k2]: v } }),
          });
        }
      }
      for (const target of targets) {
        for (const value of hostileValues(target.schema, seed)) {
          out.push(
            make(`${target.label}=${JSON.stringify(value)?.slice(0, 40)}`, { body: JSON.stringify(target.set(value)) }),
          );
        }
      }
      const raw = JSON.stringify(example);
      const inject = (extra: string) => (raw === '{}' ? `{${extra}}` : `${raw.slice(0, -1)},${extra}}`);
      out.push(make('unknown property', { body: inject('"unknownField":1') }));
      out.push(make('__proto__ property', { body: inject('"__proto__":{"isAdmin":true,"status":"ACTIVE"}') }));
      out.push(
        make('constructor.prototype property', { body: inject('"constructor":{"prototype":{"polluted":true}}') }),
      );
      out.push(make('deep JSON', { body: `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}` }));
      out.push(make('deep array', { body: `${'['.repeat(20_000)}${']'.repeat(20_000)}` }));
      out.push(make('many keys', { body: `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}` }));
      for (const whole of [
        '[]',
        '"text"',
        '42',
        'null',
        'true',
        '{',
        '{"a":1}}',
        '\u0000',
        '{"a":1e999}',
        '{"a":-1e999}',
      ]) {
        out.push(make(`body ${whole.slice(0, 20)}`, { body: whole }));
      }
    }
    out.push(make('no body', { body: undefined, headers: {} }));
    out.push(make('empty body', { body: '' }));
    for (const type of [
      'text/plain',
      'application/xml',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
      'application/x-www-form-urlencoded',
      'application/json',
    ]) {
      if (type === op.body.mediaType) continue;
      out.push(make(`Content-Type ${type}`, { headers: { 'Content-Type': type } }));
    }
  } else if (op.method !== 'GET' && op.method !== 'DELETE') {
    out.push(make('unexpected body', { headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' }));
  }
  return out;
}
