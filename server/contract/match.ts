// Finds the operation of a request, once: the path exactly as the contract writes it (letter case
// included, no trailing slash, no decoding before matching), then the method. HEAD is answered by
// the path's GET.
import type { ContractOperation } from './operations.js';

export type Match =
  | { kind: 'operation'; operation: ContractOperation; params: Record<string, string> }
  /** The path is the contract's, the method is not: `allow` lists the methods it takes. */
  | { kind: 'method'; allow: string[]; operations: ContractOperation[] }
  /** A path parameter is not valid percent-encoding. */
  | { kind: 'malformed'; operations: ContractOperation[] }
  | { kind: 'none' };

interface PathEntry {
  byMethod: Map<string, ContractOperation>;
  operations: ContractOperation[];
  allow: string[];
}

interface TemplateEntry extends PathEntry {
  pattern: RegExp;
  names: string[];
}

const NONE: Match = { kind: 'none' };

const escapeRegExp = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

export function matcher(operations: ContractOperation[]): (method: string, path: string) => Match {
  const byPath = new Map<string, PathEntry>();
  for (const operation of operations) {
    const entry: PathEntry = byPath.get(operation.path) ?? { byMethod: new Map(), operations: [], allow: [] };
    entry.byMethod.set(operation.method, operation);
    entry.operations.push(operation);
    byPath.set(operation.path, entry);
  }
  for (const entry of byPath.values()) {
    if (entry.byMethod.has('GET') && !entry.byMethod.has('HEAD'))
      entry.byMethod.set('HEAD', entry.byMethod.get('GET')!);
    entry.allow = [...entry.byMethod.keys()];
  }
  const literal = new Map<string, PathEntry>();
  const templates: TemplateEntry[] = [];
  for (const [path, entry] of byPath) {
    const names = entry.operations[0]!.pathNames;
    if (names.length === 0) literal.set(path, entry);
    else
      templates.push({
        ...entry,
        names,
        pattern: new RegExp(
          `^${path
            .split(/\{[^}]+\}/)
            .map(escapeRegExp)
            .join('([^/]+)')}$`,
        ),
      });
  }
  // Fewer parameters first, as a router would try `/users/me` before `/users/{id}`.
  templates.sort((a, b) => a.names.length - b.names.length);

  return (method, path) => {
    let entry: PathEntry | undefined = literal.get(path);
    let params: Record<string, string> = {};
    if (!entry) {
      for (const template of templates) {
        const found = template.pattern.exec(path);
        if (!found) continue;
        entry = template;
        try {
          params = Object.fromEntries(template.names.map((name, i) => [name, decodeURIComponent(found[i + 1]!)]));
        } catch {
          return { kind: 'malformed', operations: template.operations };
        }
        break;
      }
    }
    if (!entry) return NONE;
    const operation = entry.byMethod.get(method);
    if (!operation) return { kind: 'method', allow: entry.allow, operations: entry.operations };
    return { kind: 'operation', operation, params };
  };
}
