// The documents an assistant may read as MCP resources: the public contract and the guides an
// integration needs (sync, errors, this server).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface McpResource {
  uri: string;
  name: string;
  title: string;
  mimeType: string;
  read(): string;
}

// server/mcp/ in the sources, dist/mcp/ when built: the project root is two folders up either way.
const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

const guide = (file: string, title: string): McpResource => ({
  uri: `finance://docs/${file}`,
  name: file,
  title,
  mimeType: 'text/markdown',
  read: () => readFileSync(root(`docs/${file}`), 'utf8'),
});

export function resources(contractText: string): McpResource[] {
  return [
    {
      uri: 'finance://openapi.json',
      name: 'openapi.json',
      title: 'The public API contract (OpenAPI 3.1)',
      mimeType: 'application/json',
      read: () => contractText,
    },
    guide('sync.md', 'Keeping a copy in sync: change feeds and cursors'),
    guide('errors.md', 'Errors: the error body, reasons and what to do'),
    guide('mcp.md', 'Using the API from an assistant: tools, naming, safety'),
  ];
}
