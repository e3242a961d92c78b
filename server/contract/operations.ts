// Every operation of the contract, read once from the bundle: what authentication, the media-type
// check, strict numbers, paging and error rendering need to know about it.
import { resolveRef, type Json } from './bundle.js';

/**
 * The error bodies of the contract, by the schema an error response references:
 * `Error` {error, message, code, requestId, details: string[]}, `FieldError` (details as
 * {field, message}), `VcnError` {error, message, code: "<kebab-code>", requestId, errors?} and
 * `OAuthError` (RFC 6749 §5.2) and `ClientRegistrationError` (RFC 7591 §3.2.2, the same shape).
 */
export type ErrorBody = 'common' | 'field' | 'vcn' | 'oauth';

const BODY_OF_SCHEMA: Record<string, ErrorBody> = {
  ApiError: 'common',
  FieldError: 'field',
  VcnError: 'vcn',
  OAuthError: 'oauth',
  ClientRegistrationError: 'oauth',
};

/** A numeric query or path parameter (read strictly before the validator coerces it). */
export interface NumericParam {
  in: 'query' | 'path';
  name: string;
  kind: 'integer' | 'number';
  /** The value is an array serialized as comma-separated items (style form, explode false). */
  list: boolean;
}

export interface LimitBounds {
  default: number;
  minimum: number;
  maximum: number;
}

export interface ContractOperation {
  /** Upper case: GET, POST… */
  method: string;
  /** The path template as the contract writes it. */
  path: string;
  /** The names of the path's `{parameters}`, in order. */
  pathNames: string[];
  operationId: string;
  /** undefined: the operation needs no token; otherwise the scopes it needs (any one suffices). */
  scopes: string[] | undefined;
  /** The media types its request body may be sent as; empty when it takes no body. */
  mediaTypes: string[];
  bodyRequired: boolean;
  numericParams: NumericParam[];
  /** Its `limit` query parameter, for lists. */
  limit: LimitBounds | undefined;
  /** The error body of each 4xx/5xx response it declares. */
  errorBodies: Map<number, ErrorBody>;
  /** The body of statuses it does not declare (405, 413, 415…): its 400's. */
  fallbackErrorBody: ErrorBody;
  /** Its parameters' names by place (`query`, `path`, `header`), as the contract spells them. */
  paramNames: Record<string, string[]>;
  /** Its parameters' schemas by `in.name` (`query.limit`, `path.transactionId`), references unresolved. */
  paramSchemas: Record<string, Json>;
  /**
   * Its JSON body schema (references inside it unresolved: `resolve` them), if it takes one; else its
   * form body's (the OAuth endpoints), whose fields the validator's messages describe alike.
   */
  jsonBodySchema: Json | undefined;
  /** How many members its JSON body may hold (`x-max-members` of the request body), when not the default. */
  maxJsonMembers: number | undefined;
  tags: string[];
  /** Its required parameters, as `in.name` (`query.format`). */
  requiredParams: string[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

/** The page size when the contract leaves it to the server (`listUsers`). */
const SERVER_DEFAULT_LIMIT = 50;

const kindOf = (schema: Json | undefined): NumericParam['kind'] | undefined => {
  const types = Array.isArray(schema?.type) ? schema.type : [schema?.type];
  if (types.includes('integer')) return 'integer';
  if (types.includes('number')) return 'number';
  return undefined;
};

export function readOperations(bundle: Json): ContractOperation[] {
  const globalSecurity = bundle.security as Array<Record<string, string[]>> | undefined;
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries((bundle.paths ?? {}) as Record<string, Json>)) {
    const pathNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const shared = ((item.parameters ?? []) as Json[]).map((p) => resolveRef(bundle, p));
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const parameters = [...shared, ...((op.parameters ?? []) as Json[]).map((p) => resolveRef(bundle, p))];
      const security = (op.security ?? globalSecurity ?? []) as Array<Record<string, string[]>>;
      const body = resolveRef(bundle, op.requestBody) as {
        content?: Json;
        required?: boolean;
        'x-max-members'?: number;
      };
      const errorBodies = errorBodiesOf(bundle, op);
      operations.push({
        method: method.toUpperCase(),
        path,
        pathNames,
        operationId: String(op.operationId),
        scopes: security.length === 0 ? undefined : security.flatMap((req) => Object.values(req).flat()),
        mediaTypes: Object.keys(body.content ?? {}),
        bodyRequired: body.required === true,
        numericParams: numericParamsOf(parameters),
        limit: limitOf(parameters),
        errorBodies,
        fallbackErrorBody: errorBodies.get(400) ?? 'common',
        paramNames: paramNamesOf(parameters),
        paramSchemas: Object.fromEntries(
          parameters.map((p) => [`${String(p.in)}.${String(p.name)}`, p.schema as Json]),
        ),
        jsonBodySchema: jsonBodySchemaOf(bundle, body.content),
        maxJsonMembers: body['x-max-members'],
        tags: (op.tags ?? []) as string[],
        requiredParams: parameters.filter((p) => p.required === true).map((p) => `${String(p.in)}.${String(p.name)}`),
      });
    }
  }
  return operations;
}

function paramNamesOf(parameters: Json[]): Record<string, string[]> {
  const names: Record<string, string[]> = {};
  for (const p of parameters)
    if (typeof p.in === 'string' && typeof p.name === 'string') (names[p.in] ??= []).push(p.name);
  return names;
}

function jsonBodySchemaOf(bundle: Json, content: Json | undefined): Json | undefined {
  const media = (content?.['application/json'] ?? content?.['application/x-www-form-urlencoded']) as Json | undefined;
  const schema = media?.schema;
  return schema === undefined ? undefined : resolveRef(bundle, schema);
}

function errorBodiesOf(bundle: Json, op: Json): Map<number, ErrorBody> {
  const byStatus = new Map<number, ErrorBody>();
  for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
    if (!/^[45]\d\d$/.test(status)) continue;
    const content = Object.values((resolveRef(bundle, response).content ?? {}) as Record<string, Json>)[0];
    const schema = (content?.schema as Json | undefined)?.$ref as string | undefined;
    byStatus.set(Number(status), BODY_OF_SCHEMA[schema?.split('/').pop() ?? ''] ?? 'common');
  }
  return byStatus;
}

function numericParamsOf(parameters: Json[]): NumericParam[] {
  const params: NumericParam[] = [];
  for (const p of parameters) {
    if (p.in !== 'query' && p.in !== 'path') continue;
    const schema = p.schema as Json | undefined;
    const list = schema?.type === 'array';
    const kind = kindOf(list ? (schema!.items as Json) : schema);
    if (kind) params.push({ in: p.in, name: String(p.name), kind, list });
  }
  return params;
}

function limitOf(parameters: Json[]): LimitBounds | undefined {
  const param = parameters.find((p) => p.name === 'limit' && p.in === 'query');
  if (!param) return undefined;
  const s = (param.schema ?? {}) as Record<string, number | undefined>;
  return {
    default: s.default ?? SERVER_DEFAULT_LIMIT,
    minimum: s.minimum ?? 1,
    maximum: s.maximum ?? Number.MAX_SAFE_INTEGER,
  };
}
