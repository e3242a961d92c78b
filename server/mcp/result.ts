// An API answer as an MCP tool result: the JSON as structuredContent with a short text; a refusal
// as `isError` with the API's reason, param and message (the session goes on); a file described,
// not inlined.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiTool } from './catalog.js';
import { requestTarget, type ApiAnswer, type ApiRequest } from './call.js';

const TEXT_LIMIT = 1500;

const clipped = (text: string) =>
  text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT)}… (see structuredContent)` : text;

/** A line per problem the error body names: `param limit: invalid-integer — message`. */
function problems(body: unknown): string[] {
  if (!body || typeof body !== 'object') return [];
  const lines: string[] = [];
  const visit = (node: unknown, depth: number) => {
    if (!node || typeof node !== 'object' || depth > 3) return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, depth + 1));
    const o = node as Record<string, unknown>;
    if (depth > 0 && (o.param !== undefined || o.reason !== undefined)) {
      const where = o.param !== undefined ? `param ${String(o.param)}` : 'request';
      const reason = o.reason !== undefined ? `: ${String(o.reason)}` : '';
      const doc = o.docUrl ? ` (${String(o.docUrl)})` : '';
      lines.push(`- ${where}${reason}${o.message ? ` — ${String(o.message)}` : ''}${doc}`);
      return;
    }
    for (const value of Object.values(o)) visit(value, depth + 1);
  };
  visit(body, 0);
  return lines;
}

function refusal(answer: ApiAnswer): CallToolResult {
  const body = answer.body as Record<string, unknown> | undefined;
  const message = body?.message ?? body?.error_description ?? body?.error ?? 'the API refused the call';
  const lines = [`The API answered ${answer.status}: ${String(message)}`, ...problems(body)];
  if (body?.reason !== undefined) lines.push(`reason: ${String(body.reason)}`);
  if (body?.requestId) lines.push(`requestId: ${String(body.requestId)}`);
  lines.push(`body: ${clipped(JSON.stringify(body ?? null))}`);
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
}

/** What a list answer holds: `3 transactions; more with pageStartKey=…`. */
function summary(body: Record<string, unknown>): string {
  const lists = Object.entries(body).filter(([, v]) => Array.isArray(v));
  const next = body.nextPageStartKey;
  if (lists.length === 1) {
    const [name, items] = lists[0] as [string, unknown[]];
    const more = next ? `; more: call again with nextPageStartKey="${String(next)}"` : '; no more pages';
    return `${items.length} ${name}${more}\n${clipped(JSON.stringify(items))}`;
  }
  return clipped(JSON.stringify(body));
}

export function toolResult(tool: ApiTool, request: ApiRequest, answer: ApiAnswer): CallToolResult {
  if (answer.status >= 400) return refusal(answer);
  if (tool.binary) {
    const bytes = (answer.body as { bytes?: number } | undefined)?.bytes ?? 0;
    const text = `A ${answer.contentType} file of ${bytes} bytes, not inlined. Fetch it from the API with an access token: ${tool.method} ${requestTarget(request)}`;
    return { content: [{ type: 'text', text }] };
  }
  const body = answer.body;
  if (body === undefined || body === null || body === '')
    return { content: [{ type: 'text', text: `Done (HTTP ${answer.status}).` }] };
  if (typeof body === 'object' && !Array.isArray(body) && tool.outputSchema)
    return {
      structuredContent: body as Record<string, unknown>,
      content: [{ type: 'text', text: summary(body as Record<string, unknown>) }],
    };
  return { content: [{ type: 'text', text: clipped(JSON.stringify(body)) }] };
}
