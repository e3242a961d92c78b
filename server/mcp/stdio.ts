// `finance mcp`: the MCP server over stdio, a client of the HTTP API through the typed client
// (its tokens, retries and request ids). The tools are those the credentials' scopes allow.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { FinanceClient } from '@company-finance/client';
import { loadBundle } from '../contract/index.js';
import { contractTools, toolsFor } from './catalog.js';
import type { SendRequest } from './call.js';
import { resources } from './resources.js';
import { createMcpServer } from './server.js';
import type { ToolSelection } from './selection.js';
import { type CompanyContext, contractViews } from './views.js';

type Call = (
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Each request through the typed client; its own Idempotency-Key is replaced by the call's. */
const clientSender =
  (api: FinanceClient): SendRequest =>
  async (request) => {
    const call = (api as unknown as Record<string, Call>)[request.method]!.bind(api);
    const { data, error, response } = await call(request.path, {
      params: { path: request.pathParams, query: request.query },
      ...(request.body === undefined ? {} : { body: request.body }),
      headers: request.headers,
      parseAs: request.binary && !request.method.startsWith('D') ? 'blob' : 'json',
    });
    const contentType = response.headers.get('content-type') ?? '';
    const body = data instanceof Blob ? { bytes: data.size } : response.ok ? data : error;
    return { status: response.status, contentType, body };
  };

/**
 * The company's context as the server's `/mcp` gives it: no API operation names the company, and
 * only the server knows its time zone and (in the sandbox) its clock.
 */
const companyFromServer =
  (api: FinanceClient): CompanyContext =>
  async () => {
    const call = (api as unknown as Record<string, Call>).POST!.bind(api);
    const { data, response } = await call('/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_company_context', arguments: {} } },
      headers: { Accept: 'application/json, text/event-stream' },
    });
    const text = (data as { result?: { content?: { text?: string }[] } } | undefined)?.result?.content?.[0]?.text;
    if (!response.ok || text === undefined)
      throw new Error(
        `the server's /mcp, which names the company, answered ${response.status} (MCP_ENDPOINT turns it on). Calendar dates are days in the company's time zone, America/Sao_Paulo unless the company has another`,
      );
    return JSON.parse(text) as Record<string, unknown>;
  };

/** The scopes a token of these credentials carries (the token answer's `scope`). */
export async function grantedScopes(baseUrl: string, clientId: string, clientSecret: string): Promise<Set<string>> {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  const answer = (await res.json().catch(() => ({}))) as { scope?: string; error_description?: string; error?: string };
  if (!res.ok)
    throw new Error(`the token request failed (${res.status}): ${answer.error_description ?? answer.error ?? ''}`);
  return new Set((answer.scope ?? '').split(' ').filter(Boolean));
}

interface StdioOptions {
  api: FinanceClient;
  scopes: ReadonlySet<string>;
  selection: ToolSelection;
  version: string;
}

export async function serveStdio({ api, scopes, selection, version }: StdioOptions): Promise<void> {
  const bundle = loadBundle('public');
  const all = contractTools(bundle);
  const tools = toolsFor(all, scopes, selection);
  const views = toolsFor(contractViews(all), scopes, selection);
  const server = createMcpServer({
    tools,
    views,
    send: clientSender(api),
    company: companyFromServer(api),
    resources: resources(JSON.stringify(bundle)),
    version,
  });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`finance mcp: ${tools.length + views.length} tools on stdio\n`);
}
