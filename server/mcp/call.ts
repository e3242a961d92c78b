// One tool call as one API request: the arguments split back into path, query and body; a write
// carries an Idempotency-Key derived from the call (a repeated call replays the first answer
// instead of writing again); a list asks for a bounded page.
import { createHash } from 'node:crypto';
import type { ApiTool } from './catalog.js';
import { canonicalJson } from '../lib/canonical-json.js';

export interface ApiRequest {
  method: ApiTool['method'];
  /** The contract's path template, e.g. `/cost-centers/v1/cost-centers/{id}`. */
  path: string;
  pathParams: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: unknown;
  headers: Record<string, string>;
  /** Read the answer as bytes (counted, never inlined) rather than JSON. */
  binary: boolean;
}

export interface ApiAnswer {
  status: number;
  contentType: string;
  /** The parsed JSON, or for a binary answer `{bytes}`; undefined for an empty answer. */
  body: unknown;
}

/** Sends one request to the API: the typed client (stdio) or the server itself (`/mcp`). */
export type SendRequest = (request: ApiRequest) => Promise<ApiAnswer>;

/** Page size when the caller names none, and the most one call returns. */
const DEFAULT_PAGE = 25;
export const MAX_PAGE = 100;

/** The same tool with the same arguments gets the same key: the API replays its first answer (24 h). */
export const idempotencyKey = (tool: ApiTool, args: Record<string, unknown>) =>
  `mcp-${createHash('sha256')
    .update(`${tool.name}\n${canonicalJson(args)}`)
    .digest('hex')
    .slice(0, 40)}`;

export function apiRequest(tool: ApiTool, args: Record<string, unknown>): ApiRequest {
  const pick = (names: string[]) =>
    Object.fromEntries(names.filter((n) => args[n] !== undefined).map((n) => [n, args[n]]));
  const query = pick(tool.queryParams);
  if (tool.queryParams.includes('limit')) {
    if (query.limit === undefined) query.limit = DEFAULT_PAGE;
    else if (typeof query.limit === 'number' && query.limit > MAX_PAGE) query.limit = MAX_PAGE;
  }
  const body = tool.body === 'fields' ? pick(tool.bodyFields) : tool.body === 'whole' ? args.body : undefined;
  const headers: Record<string, string> = {};
  if (tool.method !== 'GET') headers['Idempotency-Key'] = idempotencyKey(tool, args);
  return {
    method: tool.method,
    path: tool.path,
    pathParams: pick(tool.pathParams),
    query,
    ...(tool.body === 'none' ? {} : { body }),
    headers,
    binary: tool.binary,
  };
}

/** The request's URL path and query, arrays comma-separated as the contract's parameters take them. */
export function requestTarget(request: Pick<ApiRequest, 'path' | 'pathParams' | 'query'>): string {
  const path = request.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(request.pathParams[name] ?? '')),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query))
    search.set(name, Array.isArray(value) ? value.join(',') : String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
