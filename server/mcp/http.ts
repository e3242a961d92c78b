// `/mcp` on the API server: the same tools over MCP's streamable HTTP transport, behind the API's
// Bearer tokens. Stateless: each POST is answered on its own, by a server made for the caller's
// scopes, and each tool call is a request to this same server with the caller's token (so rate
// limits, access lines, validation and idempotency apply as to any API request).
import type { NextFunction, Request, Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { unauthorized } from '../kit/errors.js';
import { contractTools, toolsFor } from './catalog.js';
import { requestTarget, type SendRequest } from './call.js';
import { resources } from './resources.js';
import { createMcpServer } from './server.js';
import { parseSelection } from './selection.js';

/**
 * Whose token this is: the scopes it grants, or undefined when it is not valid. The API's own
 * token check now; another issuer's tokens (delegated access) plug in here.
 */
export type BearerCheck = (token: string) => Promise<{ scopes: ReadonlySet<string> } | undefined>;

interface McpEndpointOptions {
  bundle: Record<string, unknown>;
  checkBearer: BearerCheck;
  /** FINANCE_MCP_TOOLS on the server: the allow and deny lists (docs/mcp.md). */
  tools?: string;
  version: string;
}

const BEARER = /^\s*bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;
const CHALLENGE = 'Bearer realm="finance"';

/** Requests to the server this request reached, with the caller's Authorization header. */
function loopback(req: Request): SendRequest {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host = address.startsWith('::ffff:') ? address.slice(7) : address.includes(':') ? `[${address}]` : address;
  const origin = `http://${host}:${req.socket.localPort}`;
  const authorization = req.headers.authorization ?? '';
  return async (request) => {
    const res = await fetch(`${origin}${requestTarget(request)}`, {
      method: request.method,
      headers: {
        ...request.headers,
        Authorization: authorization,
        ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    const contentType = res.headers.get('content-type') ?? '';
    if (request.binary && res.ok)
      return { status: res.status, contentType, body: { bytes: (await res.arrayBuffer()).byteLength } };
    const text = await res.text();
    let body: unknown = text || undefined;
    if (text && contentType.includes('json')) body = JSON.parse(text);
    return { status: res.status, contentType, body };
  };
}

export function mcpEndpoint({ bundle, checkBearer, tools: toolList, version }: McpEndpointOptions) {
  const all = contractTools(bundle);
  const selection = parseSelection(toolList);
  const docs = resources(JSON.stringify(bundle));
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (!token)
      return next(
        unauthorized(
          'An access token is required: send `Authorization: Bearer <token>` (get a token from POST /oauth/token)',
          CHALLENGE,
        ),
      );
    const grant = await checkBearer(token);
    if (!grant)
      return next(
        unauthorized(
          'The access token is not valid (unknown, expired or revoked): get a new one from POST /oauth/token',
          `${CHALLENGE}, error="invalid_token"`,
        ),
      );
    const server = createMcpServer({
      tools: toolsFor(all, grant.scopes, selection),
      send: loopback(req),
      resources: docs,
      version,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
}
