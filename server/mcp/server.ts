// The MCP server over any transport: the generated tools (each call one API request through
// `send`), the views (views.ts), the prompts, and the contract and guides as resources. Nothing here
// knows about HTTP or stdio.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiTool } from './catalog.js';
import { apiRequest, type SendRequest } from './call.js';
import { promptResult, promptsFor } from './prompts.js';
import { toolResult } from './result.js';
import type { McpResource } from './resources.js';
import type { CompanyContext, ViewTool } from './views.js';

interface McpServerOptions {
  tools: readonly ApiTool[];
  views: readonly ViewTool[];
  send: SendRequest;
  company: CompanyContext;
  resources: readonly McpResource[];
  version: string;
}

const INSTRUCTIONS =
  'Tools of the Company Finance Service API (named after its operations). Call get_company_context first: ' +
  "dates are days in the company's time zone. Answers are compact JSON: empty fields are left out, and a list " +
  'is a table — `columns` names the fields (`a.b` is field b of a), each of `rows` gives their values in that ' +
  'order (a row stops at its last value), `inEveryRow` holds the values every row shares. List tools return ' +
  "one page: pass the answer's nextPageStartKey to get the next. A refused call says why (reason, param, " +
  'message); fix the argument and call again. Every write call acts, even with the same arguments as before: ' +
  'pass the same idempotencyKey to make a retry safe. ' +
  'More tools come by group (finance://docs/mcp.md).';

/** The service's version (package.json), as the MCP server's. */
export const packageVersion = () =>
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const failure = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

export function createMcpServer({ tools, views, send, company, resources, version }: McpServerOptions): Server {
  const server = new Server(
    { name: 'company-finance', version },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const viewsByName = new Map(views.map((view) => [view.name, view]));
  const prompts = promptsFor(new Set([...byName.keys(), ...viewsByName.keys()]));
  // This session's writes carry `<this>-<JSON-RPC request id>`: a request sent again reuses its key,
  // any other call has its own.
  const session = `mcp-${randomBytes(12).toString('base64url')}`;
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...views, ...tools].map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: t.annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }, extra) => {
    const args = params.arguments ?? {};
    const view = viewsByName.get(params.name);
    const tool = byName.get(params.name);
    if (!tool && !view)
      return failure(`No tool ${params.name} for these credentials: list the tools to see which exist.`);
    try {
      if (view) return await view.run(args, { send, company });
      const request = apiRequest(tool!, args, `${session}-${String(extra.requestId)}`);
      return toolResult(tool!, request, await send(request));
    } catch (err) {
      return failure(`The API could not be reached: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: prompts.map(({ name, title, description, arguments: args }) => ({
      name,
      title,
      description,
      arguments: args,
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, ({ params }) => {
    const prompt = prompts.find((p) => p.name === params.name);
    if (!prompt) throw new Error(`No prompt ${params.name}`);
    return promptResult(prompt, params.arguments ?? {});
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: resources.map(({ uri, name, title, mimeType }) => ({ uri, name, title, mimeType })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, ({ params }) => {
    const found = resources.find((r) => r.uri === params.uri);
    if (!found) throw new Error(`No resource ${params.uri}`);
    return { contents: [{ uri: found.uri, mimeType: found.mimeType, text: found.read() }] };
  });
  return server;
}
