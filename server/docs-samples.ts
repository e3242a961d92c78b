// Code samples for the docs page, generated from the contract's own examples: for every operation
// a curl command and a call with the TypeScript client (`x-codeSamples`, which the docs render
// beside each operation). Nothing here is written per operation, so a sample cannot drift from the
// contract: a new parameter example or request example changes the samples on the next build.
type Json = Record<string, unknown>;
type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: Json;
  style?: string;
  explode?: boolean;
};
type Media = { example?: unknown; examples?: Record<string, { value?: unknown }> };

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const CLIENT_PACKAGE = '@company-finance/client';

const deref = <T>(bundle: Json, node: unknown): T => {
  const ref = (node as { $ref?: string } | undefined)?.$ref;
  if (!ref) return node as T;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (at as Json)[key], bundle) as T;
};

const exampleOf = (p: Parameter): unknown =>
  p.example ?? (p.schema?.examples as unknown[] | undefined)?.[0] ?? p.schema?.default;

const mediaExample = (media: Media | undefined): unknown =>
  media?.example ?? Object.values(media?.examples ?? {})[0]?.value;

/** The parameters a sample sends: path parameters, required ones, and `limit` to keep lists short. */
function sampleParameters(bundle: Json, item: Json, op: Json): Parameter[] {
  const all = [...((item.parameters ?? []) as unknown[]), ...((op.parameters ?? []) as unknown[])].map((p) =>
    deref<Parameter>(bundle, p),
  );
  return all.filter(
    (p) =>
      (p.in === 'path' || p.in === 'query') &&
      (p.in === 'path' || p.required || p.name === 'limit') &&
      exampleOf(p) !== undefined,
  );
}

const queryValue = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value));
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
const tsValue = (value: unknown) => JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');

function curlSample(
  baseUrl: string,
  method: string,
  path: string,
  params: Parameter[],
  body: { type: string; example: unknown } | undefined,
  secured: boolean,
  fileResponse = false,
): string {
  let url = `${baseUrl}${path}`;
  for (const p of params.filter((x) => x.in === 'path'))
    url = url.replace(`{${p.name}}`, encodeURIComponent(String(exampleOf(p))));
  const query = params
    .filter((p) => p.in === 'query')
    .map(
      (p) =>
        `${p.name}=${encodeURIComponent(queryValue(exampleOf(p)))
          .replace(/%2C/g, ',')
          .replace(/%3A/g, ':')}`,
    );
  if (query.length > 0) url += `?${query.join('&')}`;
  // A file answer is saved under the name the server gives it (curl will not print binary to a terminal).
  const save = fileResponse ? ' -OJ' : '';
  const lines = [`curl -s${save}${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "${url}"`];
  if (secured) lines.push('  -H "Authorization: Bearer $TOKEN"');
  if (body?.type === 'application/x-www-form-urlencoded') {
    lines[0] = `curl -s -u "$CLIENT_ID:$CLIENT_SECRET" "${url}"`;
    const form = Object.entries((body.example ?? {}) as Json).filter(
      ([k]) => k !== 'client_id' && k !== 'client_secret',
    );
    for (const [k, v] of form) lines.push(`  -d ${shellQuote(`${k}=${String(v)}`)}`);
  } else if (body?.type === 'application/json') {
    lines.push('  -H "Content-Type: application/json"', `  -d ${shellQuote(JSON.stringify(body.example))}`);
  } else if (body) {
    lines.push(`  -H "Content-Type: ${body.type}"`, `  --data-binary @file.${body.type.split('/')[1]}`);
  }
  return lines.join(' \\\n');
}

function clientSample(
  baseUrl: string,
  method: string,
  path: string,
  params: Parameter[],
  body: { type: string; example: unknown } | undefined,
  binaryResponse: boolean,
  noContent: boolean,
): string {
  const setup = [
    `import { createFinanceClient, unwrap } from '${CLIENT_PACKAGE}';`,
    '',
    '// The client fetches and refreshes its token itself.',
    // One option a line: the sample pane is narrow and its lines do not wrap.
    'const finance = createFinanceClient({',
    `  baseUrl: '${baseUrl}',`,
    '  clientId: CLIENT_ID,',
    '  clientSecret: CLIENT_SECRET,',
    '});',
  ];
  if (body?.type === 'application/x-www-form-urlencoded') {
    return [
      ...setup,
      '',
      '// Every call below sends a token from this endpoint; no need to call it yourself.',
      "const costCenters = await unwrap(finance.GET('/cost-centers/v1/cost-centers'));",
    ].join('\n');
  }
  const options: string[] = [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const group = (list: Parameter[]) =>
    `{ ${list.map((p) => `${p.name}: ${JSON.stringify(exampleOf(p))}`).join(', ')} }`;
  const paramParts = [
    ...(pathParams.length > 0 ? [`path: ${group(pathParams)}`] : []),
    ...(queryParams.length > 0 ? [`query: ${group(queryParams)}`] : []),
  ];
  if (paramParts.length > 0) options.push(`params: { ${paramParts.join(', ')} }`);
  if (body?.type === 'application/json') options.push(`body: ${tsValue(body.example)}`);
  else if (body)
    options.push(
      `body: fileBytes as never`,
      `bodySerializer: (bytes) => bytes`,
      `headers: { 'Content-Type': '${body.type}' }`,
    );
  if (binaryResponse) options.push(`parseAs: 'blob'`);
  const call = `finance.${method.toUpperCase()}('${path}'${options.length > 0 ? `, {\n  ${options.join(',\n  ')},\n}` : ''})`;
  // A 204 has no result to keep: `unwrap` only throws on an error.
  return [...setup, '', noContent ? `await unwrap(${call});` : `const result = await unwrap(${call});`].join('\n');
}

/** `ids`' key for the days every date of a body example moves by (the sandbox's today, not the contract's). */
export const SHIFT_DAYS = 'dates.shiftDays';

const DAY = /^(\d{4}-\d{2}-\d{2})(T.*)?$/;

/** A date (or a date-time's day, its time and offset kept) `days` later. */
function shiftDate(value: string, days: number): string {
  const match = DAY.exec(value);
  if (!match || days === 0) return value;
  const day = new Date(Date.parse(`${match[1]}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  return `${day}${match[2] ?? ''}`;
}

const shiftDates = (value: unknown, days: number): unknown =>
  typeof value === 'string'
    ? shiftDate(value, days)
    : Array.isArray(value)
      ? value.map((v) => shiftDates(v, days))
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shiftDates(v, days)]))
        : value;

/**
 * A JSON body example with the top-level fields `ids` names (`body.costCenterId`) set to its ids; a
 * batch's `transactions` items likewise, their `id` the demo's transaction of the statement (a
 * number: banking, a ULID: credit card); the items of a list `ids` names (`body.successful.id`) with
 * that id; every date moved by `ids[SHIFT_DAYS]` days.
 */
export function withBodyIds(example: unknown, ids: Record<string, string | number>): unknown {
  if (typeof example !== 'object' || example === null || Array.isArray(example)) return example;
  const out = shiftDates(example, Number(ids[SHIFT_DAYS] ?? 0)) as Json;
  for (const [key, value] of Object.entries(out)) {
    const id = ids[`body.${key}`];
    if (id !== undefined) out[key] = typeof value === 'string' ? String(id) : id;
    if (key === 'transactions' && Array.isArray(value))
      out[key] = value.map((item) => {
        const filled = withBodyIds(item, { ...ids, [SHIFT_DAYS]: 0 }) as Json;
        const own = ids[typeof filled.id === 'number' ? 'body.transactionId' : 'body.cardTransactionId'];
        return own === undefined || filled.id === undefined ? filled : { ...filled, id: own };
      });
    // An accounting sync's lists: each its own transaction (one transaction at most once per call).
    const listed = ids[`body.${key}.id`];
    if (listed !== undefined && Array.isArray(value))
      out[key] = value.map((item) => ({ ...(item as Json), id: listed }));
  }
  return out;
}

/** What a sample of one operation sends and gets. */
interface Call {
  method: string;
  path: string;
  params: Parameter[];
  body: { type: string; example: unknown } | undefined;
  secured: boolean;
  /** Some answer is not JSON (the client parses it as a blob). */
  binaryResponse: boolean;
  /** Every answer is a file (PDF, image): curl saves it. */
  fileResponse: boolean;
  noContent: boolean;
}

const isFile = (type: string) => type === 'application/pdf' || type.startsWith('image/');

/**
 * The call of `method path` with its examples; a path parameter's example replaced by `ids` under
 * the path up to the parameter, a query parameter's under `path?name`.
 */
function callOf(bundle: Json, path: string, method: string, ids: Record<string, string | number>): Call {
  const item = (bundle.paths as Record<string, Json>)[path]!;
  const op = item[method] as Json;
  const params = sampleParameters(bundle, item, op).map((p) => {
    const key = p.in === 'path' ? path.slice(0, path.indexOf(`{${p.name}}`) + p.name.length + 2) : `${path}?${p.name}`;
    const id = ids[key];
    return id === undefined ? p : { ...p, example: p.in === 'query' ? String(id).split(',') : id };
  });
  const requestBody = deref<{ content?: Record<string, Media> } | undefined>(bundle, op.requestBody);
  const [type, media] = Object.entries(requestBody?.content ?? {})[0] ?? [];
  const responses = Object.entries((op.responses ?? {}) as Record<string, unknown>)
    .filter(([status]) => status.startsWith('2'))
    .map(([, r]) => Object.keys(deref<{ content?: Json }>(bundle, r).content ?? {}));
  return {
    method,
    path,
    params,
    body: type ? { type, example: withBodyIds(mediaExample(media), ids) } : undefined,
    secured: ((op.security ?? bundle.security ?? []) as unknown[]).length > 0,
    binaryResponse: responses.some((types) => types.some((t) => !t.includes('json'))),
    fileResponse: responses.length > 0 && responses.every((types) => types.length > 0 && types.every(isFile)),
    noContent: responses.every((types) => types.length === 0),
  };
}

/** Where an operation's URL comes from, when it is issued by another's answer (`x-url-from`). */
interface UrlFrom {
  operationId: string;
  field: string;
}

function findOperation(bundle: Json, operationId: string): { path: string; method: string } {
  for (const [path, item] of Object.entries((bundle.paths ?? {}) as Record<string, Json>))
    for (const method of METHODS)
      if ((item[method] as Json | undefined)?.operationId === operationId) return { path, method };
  throw new Error(`x-url-from names no operation ${operationId}`);
}

/** `RECEIPT_URL` for a `receiptToken`: the shell variable holding the issued URL. */
const urlVariable = (call: Call) =>
  `${(call.params.find((p) => p.in === 'path')?.name ?? 'issued').replace(/Token$/, '').toUpperCase()}_URL`;

const readField = (field: string) => `node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).${field}'`;

/** curl: ask the issuing operation for the URL, then call it (the signature in it is the credential). */
function issuedCurl(baseUrl: string, issuer: Call, from: UrlFrom, call: Call): string {
  const variable = urlVariable(call);
  const first = curlSample(baseUrl, issuer.method, issuer.path, issuer.params, issuer.body, issuer.secured);
  const target = curlSample(baseUrl, call.method, '', [], call.body, false, call.fileResponse).replace(
    `"${baseUrl}"`,
    `"$${variable}"`,
  );
  return `${variable}=$(${first} \
  | ${readField(from.field)})
${target}`;
}

function issuedClient(baseUrl: string, issuer: Call, from: UrlFrom, call: Call): string {
  const issued = clientSample(baseUrl, issuer.method, issuer.path, issuer.params, issuer.body, false, false).replace(
    'const result = await',
    `const { ${from.field} } = await`,
  );
  const init =
    call.method === 'get'
      ? ''
      : `, {
  method: '${call.method.toUpperCase()}',
  headers: { 'Content-Type': '${call.body?.type}' },
  body: fileBytes,
}`;
  const answer = call.fileResponse
    ? 'const file = await res.blob();'
    : `if (!res.ok) throw new Error(await res.text());`;
  return `${issued}
// The URL is the credential: any HTTP client can use it.
const res = await fetch(${from.field}${init});
${answer}`;
}

/**
 * Adds `x-codeSamples` (curl, TypeScript client) to every operation of a copy of `bundle`. `ids`
 * replaces path parameters' examples, by the path up to the parameter, query parameters' by
 * `path?name`, the body fields that name a resource, by `body.<field>`, and moves body dates by
 * `ids[SHIFT_DAYS]` (server/sandbox/docs-demo.ts). An operation whose URL another issues
 * (`x-url-from`) is shown as the two calls.
 */
export function withCodeSamples(bundle: Json, ids: Record<string, string | number> = {}): Json {
  const out = structuredClone(bundle);
  const baseUrl = String(((out.servers ?? []) as Array<{ url: string }>)[0]?.url ?? 'http://localhost:8080').replace(
    /\/+$/,
    '',
  );
  for (const [path, item] of Object.entries((out.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const call = callOf(out, path, method, ids);
      const from = op['x-url-from'] as UrlFrom | undefined;
      const issuer = from && findOperation(out, from.operationId);
      const issuerCall = issuer && callOf(out, issuer.path, issuer.method, ids);
      const samples: CodeSample[] = [
        {
          lang: 'Shell',
          label: 'curl',
          source: issuerCall
            ? issuedCurl(baseUrl, issuerCall, from!, call)
            : curlSample(baseUrl, method, path, call.params, call.body, call.secured, call.fileResponse),
        },
        {
          lang: 'TypeScript',
          label: 'TypeScript client',
          source: issuerCall
            ? issuedClient(baseUrl, issuerCall, from!, call)
            : clientSample(baseUrl, method, path, call.params, call.body, call.binaryResponse, call.noContent),
        },
      ];
      op['x-codeSamples'] = samples;
    }
  }
  return out;
}

/** The samples that `ids` change, as (contract example's source, demo source) pairs. */
export function sampleEdits(bundle: Json, ids: Record<string, string | number>): Array<[string, string]> {
  const sources = (samples: Json) =>
    Object.values((samples.paths ?? {}) as Record<string, Json>).flatMap((item) =>
      METHODS.flatMap((method) => ((item[method] as Json | undefined)?.['x-codeSamples'] ?? []) as CodeSample[]),
    );
  const before = sources(withCodeSamples(bundle));
  const after = sources(withCodeSamples(bundle, ids));
  return before.flatMap(
    (sample, i): Array<[string, string]> =>
      after[i] && after[i].source !== sample.source ? [[sample.source, after[i].source]] : [],
  );
}
