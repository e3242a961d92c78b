// The MCP tools, generated from the public contract at start: one per operation that takes a
// bearer token and answers 2xx, named by its operationId in snake_case. Its input is the path and
// query parameters and the body's fields as one object; its output schema is the 2xx JSON answer.
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
  inputSchema: Json & { type: 'object' };
  outputSchema?: Json & { type: 'object' };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
  pathParams: string[];
  queryParams: string[];
  /** 'fields': the body's fields sit beside the parameters; 'whole': the body is the `body` argument. */
  body: 'none' | 'fields' | 'whole';
  bodyFields: string[];
  /** The 2xx answer is not JSON (a file): it is described, never inlined. */
  binary: boolean;
  /** The 2xx answer carries a secret (a signing secret, a card number). */
  secretAnswer: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export const snakeCase = (operationId: string) => operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The summary and the description's first paragraph: what helps a model choose the tool. */
function describe(op: Json): string {
  const summary = String(op.summary ?? '').trim();
  const first =
    String(op.description ?? '')
      .split(/\n\s*\n/)[0]
      ?.replace(/\s+/g, ' ')
      .trim() ?? '';
  const text = [summary.replace(/\.?$/, '.'), first].filter(Boolean).join(' ');
  return text.length > 600 ? `${text.slice(0, 597)}…` : text;
}

const short = (text: unknown) => {
  const first =
    String(text ?? '')
      .split(/\n\s*\n/)[0]
      ?.replace(/\s+/g, ' ')
      .trim() ?? '';
  return first.length > 300 ? `${first.slice(0, 297)}…` : first;
};

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
    const description = short(param.description);
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
      properties.body = { ...schema, description: short(requestBody?.description) || 'The request body.' };
      if (requestBody?.required) required.push('body');
    }
  }
  const [, success] = successOf(op) ?? [];
  const content = (resolved<Json>(bundle, success).content ?? {}) as Json;
  const json = content['application/json'] as Json | undefined;
  const output = json ? (plainSchema(bundle, json.schema) as Json) : undefined;
  const verb = method.toUpperCase() as ApiTool['method'];
  const security = (op.security ?? bundle.security ?? []) as Json[];
  return {
    name: snakeCase(String(op.operationId)),
    operationId: String(op.operationId),
    method: verb,
    path,
    title: String(op.summary ?? op.operationId),
    description: describe(op),
    scopes: security.flatMap((s) => Object.values(s).flat() as string[]),
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
    ...(output?.type === 'object' ? { outputSchema: output as Json & { type: 'object' } } : {}),
    annotations: {
      readOnlyHint: verb === 'GET',
      destructiveHint: verb === 'DELETE',
      // HTTP's own semantics: PUT and DELETE may be repeated; a PATCH or POST is not assumed to be.
      idempotentHint: verb === 'GET' || verb === 'PUT' || verb === 'DELETE',
      openWorldHint: false,
    },
    pathParams,
    queryParams,
    body,
    bodyFields,
    binary: Object.keys(content).length > 0 && !json,
    secretAnswer: namesSecret(output),
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

/** The tools these credentials may call, after the allow and deny lists. */
export function toolsFor(tools: readonly ApiTool[], scopes: ReadonlySet<string>, selection: ToolSelection): ApiTool[] {
  return tools.filter(
    (tool) =>
      (tool.scopes.length === 0 || tool.scopes.some((s) => scopes.has(s))) &&
      selected(tool.name, hiddenByDefault(tool), selection),
  );
}
