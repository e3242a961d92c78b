// One tool call as one API request: the arguments split back into path, query and body; a list
// asks for a bounded page. A write carries the Idempotency-Key of this call: the client's
// `idempotencyKey` argument when it passes one, else the key of this JSON-RPC request (a retry of
// the same request reuses it). Never one derived from the arguments: blocking a card, unblocking
// it and blocking it again are three calls with two identical ones, and each must act.
import { type ApiTool, IDEMPOTENCY_KEY } from './catalog.js';

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

/** Page size when the caller names none, and the most one call returns (or the operation's own maximum). */
const DEFAULT_PAGE = 25;
export const MAX_PAGE = 100;

/**
 * `callKey`: this call's own key (server.ts: the session's random prefix and the JSON-RPC request
 * id), used when the client passes no `idempotencyKey`.
 */
export function apiRequest(tool: ApiTool, args: Record<string, unknown>, callKey?: string): ApiRequest {
  const pick = (names: string[]) =>
    Object.fromEntries(names.filter((n) => args[n] !== undefined).map((n) => [n, args[n]]));
  const query = pick(tool.queryParams);
  if (tool.queryParams.includes('limit')) {
    const most = Math.min(
      MAX_PAGE,
      (tool.inputSchema.properties as { limit?: { maximum?: number } }).limit?.maximum ?? MAX_PAGE,
    );
    if (query.limit === undefined) query.limit = Math.min(DEFAULT_PAGE, most);
    else if (typeof query.limit === 'number' && query.limit > most) query.limit = most;
  }
  const body = tool.body === 'fields' ? pick(tool.bodyFields) : tool.body === 'whole' ? args.body : undefined;
  const headers: Record<string, string> = {};
  if (tool.method !== 'GET') {
    const asked = tool.bodyFields.includes(IDEMPOTENCY_KEY) ? undefined : args[IDEMPOTENCY_KEY];
    const key = typeof asked === 'string' && asked !== '' ? asked : callKey;
    if (key) headers['Idempotency-Key'] = key;
  }
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
