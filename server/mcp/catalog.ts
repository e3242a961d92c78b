// The MCP tools, generated from the public contract at start: one per operation that takes a
// bearer token and answers 2xx, named by its operationId in snake_case. Its input is the path and
// query parameters and the body's fields as one object; a write also takes `idempotencyKey`.
import { groupOf } from './groups.js';
import { hintsOf, type ToolHints } from './hints.js';
import { plainSchema, resolved } from './schema.js';
import { hiddenByDefault, namesSecret, selected, type ToolSelection } from './selection.js';

type Json = Record<string, unknown>;

export interface ApiTool {
  name: string;
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  title: string;
  description: string;
  /** Any one of these scopes lets the credentials call it (the operation's security). */
  scopes: string[];
  /** The group that lists it (groups.ts), from the operation's tag. */
  group: string;
  inputSchema: Json & { type: 'object' };
  annotations: ToolHints;
  pathParams: string[];
  queryParams: string[];
  /** 'fields': the body's fields sit beside the parameters; 'whole': the body is the `body` argument. */
  body: 'none' | 'fields' | 'whole';
  bodyFields: string[];
  /** The 2xx answer is not JSON (a file): it is described, never inlined. */
  binary: boolean;
  /** The 2xx answer carries a secret (a signing secret, a client secret). */
  secretAnswer: boolean;
  /** Its answer is card data on purpose (`vcn:reveal`): the only results that keep a card number and CVV. */
  revealsCard: boolean;
}

/** The argument a write takes to be repeated safely (call.ts). */
export const IDEMPOTENCY_KEY = 'idempotencyKey';
const idempotencyKeyArgument = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description:
    'Optional. Pass the same key to repeat this call without writing twice (the first answer is replayed for 24 h); without it every call writes.',
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export const snakeCase = (operationId: string) => operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The first paragraph of `text` on one line, cut after the last whole sentence that fits in `max`. */
export function sentences(text: unknown, max: number): string {
  const first =
    String(text ?? '')
      .split(/\n\s*\n/)[0]
      ?.replace(/\s+/g, ' ')
      .trim() ?? '';
  if (first.length <= max) return first;
  const ends = [...first.slice(0, max + 1).matchAll(/[.!?](?=\s)/g)].map((m) => m.index + 1);
  const end = ends.at(-1);
  return end === undefined ? `${first.slice(0, first.lastIndexOf(' ', max)).trimEnd()}…` : first.slice(0, end);
}

/** The summary and the description's first paragraph: what helps a model choose the tool. */
function describe(op: Json): string {
  const summary = String(op.summary ?? '')
    .trim()
    .replace(/\.?$/, '.');
  return [summary, sentences(op.description, 600 - summary.length - 1)].filter(Boolean).join(' ');
}

/** An input schema as a tool lists it: descriptions to their first sentences, one example. */
function lean(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lean);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === 'description') out[key] = sentences(value, 240);
    else if (key === 'examples' && Array.isArray(value)) out[key] = value.slice(0, 1);
    else if (key === 'properties')
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, child]) => [name, lean(child)]));
    else out[key] = lean(value);
  }
  return out;
}

const successOf = (op: Json) => Object.entries((op.responses ?? {}) as Json).find(([status]) => /^2\d\d$/.test(status));

/** Why an operation of the public contract is no tool, or undefined when it is one. */
export function notATool(op: Json): string | undefined {
  const security = op.security as Json[] | undefined;
  if (Array.isArray(security) && security.every((s) => Object.keys(s).length === 0))
    return 'takes no bearer token (the token request itself, or a signed link the API hands out)';
  if (!successOf(op)) return 'answers no 2xx (a redirect for a browser)';
  return undefined;
}

function buildTool(bundle: Json, method: (typeof METHODS)[number], path: string, item: Json, op: Json): ApiTool {
  const properties: Json = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  const queryParams: string[] = [];
  const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])];
  for (const raw of params) {
    const param = resolved<Json>(bundle, raw);
    if (param.in !== 'path' && param.in !== 'query') continue;
    const name = String(param.name);
    (param.in === 'path' ? pathParams : queryParams).push(name);
    const description = param.description;
    properties[name] = { ...(plainSchema(bundle, param.schema) as Json), ...(description ? { description } : {}) };
    if (param.required) required.push(name);
  }
  let body: ApiTool['body'] = 'none';
  let bodyFields: string[] = [];
  const requestBody = op.requestBody ? resolved<Json>(bundle, op.requestBody) : undefined;
  const bodySchema = (requestBody?.content as Json | undefined)?.['application/json'] as Json | undefined;
  if (bodySchema) {
    const schema = plainSchema(bundle, bodySchema.schema) as Json;
    const fields = schema.properties as Json | undefined;
    const plainObject = fields && !schema.oneOf && !schema.anyOf && !schema.allOf;
    if (plainObject && Object.keys(fields).every((f) => !(f in properties))) {
      body = 'fields';
      bodyFields = Object.keys(fields);
      Object.assign(properties, fields);
      if (requestBody?.required) required.push(...((schema.required as string[]) ?? []));
    } else {
      body = 'whole';
      properties.body = { ...schema, description: requestBody?.description || 'The request body.' };
      if (requestBody?.required) required.push('body');
    }
  }
  const [status = '', success] = successOf(op) ?? [];
  const content = (resolved<Json>(bundle, success).content ?? {}) as Json;
  const json = content['application/json'] as Json | undefined;
  const output = json ? plainSchema(bundle, json.schema) : undefined;
  const verb = method.toUpperCase() as ApiTool['method'];
  const operationId = String(op.operationId);
  if (verb !== 'GET' && !(IDEMPOTENCY_KEY in properties)) properties[IDEMPOTENCY_KEY] = idempotencyKeyArgument;
  const security = (op.security ?? bundle.security ?? []) as Json[];
  const scopes = security.flatMap((s) => Object.values(s).flat() as string[]);
  return {
    name: snakeCase(operationId),
    operationId,
    method: verb,
    path,
    title: String(op.summary ?? operationId),
    description: describe(op),
    scopes,
    group: groupOf(String((op.tags as string[] | undefined)?.[0] ?? '')),
    inputSchema: lean({
      type: 'object',
      properties,
      ...(required.length ? { required } : {}),
    }) as ApiTool['inputSchema'],
    annotations: hintsOf(operationId, verb, status),
    pathParams,
    queryParams,
    body,
    bodyFields,
    binary: Object.keys(content).length > 0 && !json,
    secretAnswer: namesSecret(output),
    revealsCard: scopes.includes('vcn:reveal'),
  };
}

/** Every tool the public contract defines, before scopes and the allow and deny lists. */
export function contractTools(bundle: Json): ApiTool[] {
  const tools: ApiTool[] = [];
  for (const [path, item] of Object.entries(bundle.paths as Record<string, Json>))
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (op?.operationId && !notATool(op)) tools.push(buildTool(bundle, method, path, item, op));
    }
  return tools;
}

/** What the selection and the scopes look at, in an API tool and a view (views.ts) alike. */
interface Listable {
  name: string;
  group: string;
  scopes: readonly string[];
  secretAnswer: boolean;
}

/** The tools these credentials may call that the selection lists (selection.ts). */
export function toolsFor<T extends Listable>(
  tools: readonly T[],
  scopes: ReadonlySet<string>,
  selection: ToolSelection,
): T[] {
  return tools.filter(
    (tool) =>
      (tool.scopes.length === 0 || tool.scopes.some((s) => scopes.has(s))) &&
      selected({ name: tool.name, group: tool.group, hidden: hiddenByDefault(tool) }, selection),
  );
}
