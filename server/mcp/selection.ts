// Which tools are listed: the sandbox helpers, card reveals and operations whose answer carries a
// secret are hidden unless the allow list names them; the deny list removes any tool.
// `--tools` / FINANCE_MCP_TOOLS: comma-separated names, `*` matching any run of characters;
// `-name` denies. `reveal_vcn,-delete_*` lists the card reveal and no delete tool.

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

/** Field names of an answer that hold a secret: a webhook signing secret, a card number or code. */
const SECRET_FIELD = /secret|^pan$|^cvv$|^cvc$/i;

export function namesSecret(schema: unknown, depth = 0): boolean {
  if (depth > 6 || schema === null || typeof schema !== 'object') return false;
  const node = schema as Record<string, unknown>;
  const fields = (node.properties ?? {}) as Record<string, unknown>;
  if (Object.keys(fields).some((name) => SECRET_FIELD.test(name))) return true;
  return [...Object.values(fields), node.items, ...((node.oneOf ?? node.anyOf ?? node.allOf ?? []) as unknown[])].some(
    (child) => namesSecret(child, depth + 1),
  );
}

/** Why a tool is hidden unless allowed, or undefined when it is listed by default. */
export function hiddenByDefault(tool: {
  path: string;
  scopes: readonly string[];
  secretAnswer: boolean;
}): string | undefined {
  if (tool.path.startsWith('/sandbox/')) return 'a sandbox test helper';
  if (tool.scopes.includes('vcn:reveal')) return 'reveals card details';
  // An assistant that can make approval codes could approve an app of its own choosing.
  if (tool.scopes.includes('apps:manage')) return 'approves or revokes apps acting for the company';
  if (tool.secretAnswer) return 'its answer carries a secret';
  return undefined;
}

export function selected(name: string, hidden: string | undefined, selection: ToolSelection): boolean {
  if (selection.deny.some((p) => p.test(name))) return false;
  return !hidden || selection.allow.some((p) => p.test(name));
}
