// An API answer as an MCP tool result. Its text is the whole answer (compact.ts): every row of the
// page, every total, nothing cut, so a client that shows the model only `content` answers right;
// it is sent once, as text, with no structuredContent copy beside it. A refusal is `isError` with
// the API's reason, param and message (the session goes on); a file is described, not inlined; a
// card number and security code are masked unless the tool is the card reveal.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiTool } from './catalog.js';
import { requestTarget, type ApiAnswer, type ApiRequest } from './call.js';
import { compactText } from './compact.js';

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
  lines.push(`body: ${compactText(body ?? null)}`);
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
}

/** Card data a model has no use for: a card number keeps its last four digits, a security code nothing. */
function maskCardData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskCardData);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => {
      if (key === 'pan' && typeof member === 'string') return [key, `${'*'.repeat(12)}${member.slice(-4)}`];
      if (key === 'cvv' && typeof member === 'string') return [key, '***'];
      return [key, maskCardData(member)];
    }),
  );
}

export const textResult = (value: unknown): CallToolResult => ({
  content: [{ type: 'text', text: compactText(value) }],
});

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
  return textResult(tool.revealsCard ? body : maskCardData(body));
}
