// `/mcp` on the API server: the same tools over MCP's streamable HTTP transport, behind the API's
// Bearer tokens. Stateless: each POST is answered on its own, by a server made for the caller's
// scopes, and each tool call is a request to this same server with the caller's token (so rate
// limits, access lines, validation and idempotency apply as to any API request). Before that:
// - a browser page's `Origin` must be one this API allows (CORS_ORIGINS, or PUBLIC_BASE_URL's):
//   another is 403, so a page on a name rebound to this address cannot use a token it finds;
//   clients that send no Origin (every non-browser client) pass;
// - only POST: the server sends nothing unasked, so a GET stream would stay empty (405, as the
//   transport allows);
// - 401 names the protected-resource metadata (RFC 9728) and the scopes the default tools need,
//   so a client finds the authorization server and asks for no more than that;
// - the caller's requests count against the API's per-client limit (limits.ts).
import type { NextFunction, Request, Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Config } from '../config.js';
import type { AuthContext } from '../kit/handler.js';
import { ApiError, unauthorized } from '../kit/errors.js';
import { originAllowed } from '../http/mechanisms/cors.js';
import { resourceMetadataUrl } from '../http/oauth-metadata.js';
import { contextOf, type Step } from '../http/pipeline/context.js';
import { servedBaseUrl } from '../http/served-contract.js';
import { contractTools, toolsFor } from './catalog.js';
import { requestTarget, type SendRequest } from './call.js';
import { ESSENTIALS } from './groups.js';
import { resources } from './resources.js';
import { createMcpServer } from './server.js';
import { parseSelection } from './selection.js';
import { type CompanyContext, contractViews } from './views.js';

/**
 * Whose token this is: the caller as the API's authentication step sees it, and its company's
 * context; undefined when the token is not valid.
 */
export type BearerCheck = (token: string) => Promise<{ auth: AuthContext; company: CompanyContext } | undefined>;

interface McpEndpointOptions {
  bundle: Record<string, unknown>;
  checkBearer: BearerCheck;
  config: Config;
  /** The per-client rate limit (limits.ts), made when the app starts; none when limits are off. */
  rateLimit: Step | undefined;
  version: string;
}

const BEARER = /^\s*bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

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

/** `?tools=cards,webhooks`: the groups and tools to list besides the default set (selection.ts). */
const toolList = (req: Request) =>
  new URL(req.originalUrl, 'http://mcp.invalid').searchParams.getAll('tools').join(',');

export function mcpEndpoint({ bundle, checkBearer, config, rateLimit, version }: McpEndpointOptions) {
  const all = contractTools(bundle);
  const views = contractViews(all);
  const docs = resources(JSON.stringify(bundle));
  // What a client should ask for: the scopes of the default tools, not every scope the API has.
  const scope = [...new Set(all.filter((t) => ESSENTIALS.has(t.name)).flatMap((t) => t.scopes))].sort().join(' ');
  const origins = [...config.corsOrigins, ...(config.publicBaseUrl ? [new URL(config.publicBaseUrl).origin] : [])];
  const challenge = (req: Request, error?: string) =>
    `Bearer realm="finance", resource_metadata="${resourceMetadataUrl(servedBaseUrl(req, config))}", scope="${scope}"${error ? `, error="${error}"` : ''}`;

  return async (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, origins))
      return next(
        new ApiError(
          403,
          `Requests from the origin ${origin} may not use /mcp: browser origins must be allowed by CORS_ORIGINS`,
          [],
          {},
          { reason: 'forbidden' },
        ),
      );
    if (req.method !== 'POST')
      return next(
        new ApiError(
          405,
          `/mcp takes POST only: this server sends no messages unasked, so it offers no stream to ${req.method}`,
          [],
          {
            Allow: 'POST',
          },
        ),
      );
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (!token)
      return next(
        unauthorized(
          'An access token is required: send `Authorization: Bearer <token>` (get a token from POST /oauth/token)',
          challenge(req),
        ),
      );
    const caller = await checkBearer(token);
    if (!caller)
      return next(
        unauthorized(
          'The access token is not valid (unknown, expired or revoked): get a new one from POST /oauth/token',
          challenge(req, 'invalid_token'),
        ),
      );
    const context = contextOf(res);
    context.auth = caller.auth;
    if (rateLimit) {
      await rateLimit(req, res, context);
      if (res.writableEnded) return;
    }
    const selection = parseSelection(toolList(req));
    const server = createMcpServer({
      tools: toolsFor(all, caller.auth.scopes, selection),
      views: toolsFor(views, caller.auth.scopes, selection),
      send: loopback(req),
      company: caller.company,
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
