// The MCP server over any transport: the generated tools (each call one API request through
// `send`) and the contract and guides as resources. Nothing here knows about HTTP or stdio.
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiTool } from './catalog.js';
import { apiRequest, type SendRequest } from './call.js';
import { toolResult } from './result.js';
import type { McpResource } from './resources.js';

interface McpServerOptions {
  tools: readonly ApiTool[];
  send: SendRequest;
  resources: readonly McpResource[];
  version: string;
}

const INSTRUCTIONS =
  'Tools of the Company Finance Service API, one per operation (named after its operationId). ' +
  "List tools return one page: pass the answer's nextPageStartKey to get the next. A refused call says why " +
  '(reason, param, message); fix the argument and call again. Repeating a write with the same arguments does ' +
  'not write twice. Read finance://docs/mcp.md for more.';

/** The service's version (package.json), as the MCP server's. */
export const packageVersion = () =>
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const failure = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

export function createMcpServer({ tools, send, resources, version }: McpServerOptions): Server {
  const server = new Server(
    { name: 'company-finance', version },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      annotations: { title: t.title, ...t.annotations },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const tool = byName.get(params.name);
    if (!tool) return failure(`No tool ${params.name} for these credentials: list the tools to see which exist.`);
    const request = apiRequest(tool, params.arguments ?? {});
    try {
      return toolResult(tool, request, await send(request));
    } catch (err) {
      return failure(`The API could not be reached: ${err instanceof Error ? err.message : String(err)}`);
    }
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
