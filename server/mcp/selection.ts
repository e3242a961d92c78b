// Which tools are listed: the default set (groups.ts), plus the groups and tools a list names.
// `?tools=` on /mcp, `--tools` / FINANCE_MCP_TOOLS on stdio: comma-separated group or tool names,
// `*` matching any run of characters, `all` every group; `-name` denies a tool or a group.
// `cards,webhooks,-delete_*` adds two groups and lists no delete tool. Tools marked below (card
// reveals, answers carrying a secret, app approvals) are listed only when their own name is.

import { ESSENTIALS } from './groups.js';

export interface ToolSelection {
  allow: RegExp[];
  deny: RegExp[];
}

const pattern = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

export function parseSelection(text: string | undefined): ToolSelection {
  const selection: ToolSelection = { allow: [], deny: [] };
  for (const item of (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (item.startsWith('-')) selection.deny.push(pattern(item.slice(1)));
    else selection.allow.push(pattern(item.replace(/^\+/, '')));
  }
  return selection;
}

/** Field names of an answer that hold a secret a result would show: a signing secret, a client secret. */
const SECRET_FIELD = /secret/i;

export function namesSecret(schema: unknown, depth = 0): boolean {
  if (depth > 6 || schema === null || typeof schema !== 'object') return false;
  const node = schema as Record<string, unknown>;
  const fields = (node.properties ?? {}) as Record<string, unknown>;
  if (Object.keys(fields).some((name) => SECRET_FIELD.test(name))) return true;
  return [...Object.values(fields), node.items, ...((node.oneOf ?? node.anyOf ?? node.allOf ?? []) as unknown[])].some(
    (child) => namesSecret(child, depth + 1),
  );
}

/** Why a tool is listed only when named, or undefined when a group may bring it. */
export function hiddenByDefault(tool: { scopes: readonly string[]; secretAnswer: boolean }): string | undefined {
  if (tool.scopes.includes('vcn:reveal')) return 'reveals card numbers and security codes';
  // An assistant that can make approval codes could approve an app of its own choosing.
  if (tool.scopes.includes('apps:manage')) return 'approves or revokes apps acting for the company';
  if (tool.secretAnswer) return 'its answer carries a secret';
  return undefined;
}

export function selected(
  tool: { name: string; group: string; hidden: string | undefined },
  selection: ToolSelection,
): boolean {
  const names = (p: RegExp) => p.test(tool.name);
  const groups = (p: RegExp) => p.test(tool.group) || p.source === '^all$';
  if (selection.deny.some((p) => names(p) || groups(p))) return false;
  if (selection.allow.some(names)) return true;
  if (tool.hidden) return false;
  return ESSENTIALS.has(tool.name) || selection.allow.some(groups);
}
