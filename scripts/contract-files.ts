// File-level rules of the contract that the OpenAPI linter cannot see, because a component file
// only becomes a component once bundled (openapi/README.md):
// - every file under openapi/paths/ and openapi/components/ is reachable by $ref from openapi.yaml;
// - each path's file is named after the path (`/a/v1/b/{id}` → `paths/a_v1_b_{id}.yaml`);
// - every component file sits in a known component folder.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';

const componentFolders = ['schemas', 'parameters', 'responses', 'headers', 'examples', 'requestBodies'];

const listYaml = (folder: string): string[] =>
  existsSync(folder)
    ? readdirSync(folder, { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
        .map((entry) => resolve(entry.parentPath, entry.name))
    : [];

function collectRefs(node: unknown, into: string[]): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, into);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.push(value);
      else collectRefs(value, into);
    }
  }
}

/** Files reachable from `root` through file $refs, and the refs that point nowhere. */
function reachableFiles(root: string): { reached: Set<string>; broken: string[] } {
  const reached = new Set<string>();
  const broken: string[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    const refs: string[] = [];
    collectRefs(parse(readFileSync(file, 'utf8')), refs);
    for (const ref of refs) {
      const target = ref.split('#')[0];
      if (!target) continue; // a local ref inside the same file
      const absolute = resolve(dirname(file), target);
      if (existsSync(absolute)) queue.push(absolute);
      else broken.push(`${relative(process.cwd(), file)}: $ref ${ref} points to a missing file`);
    }
  }
  return { reached, broken };
}

/** Problems with the contract's files, as human-readable lines; empty when all is well. */
export function contractFileProblems(openapiDir = 'openapi'): string[] {
  const root = resolve(openapiDir, 'openapi.yaml');
  const show = (file: string) => relative(process.cwd(), file);
  const { reached, broken } = reachableFiles(root);
  const problems = [...broken];

  const document = parse(readFileSync(root, 'utf8')) as { paths?: Record<string, { $ref?: unknown }> };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const expected = `paths/${path.replace(/^\//, '').replaceAll('/', '_')}.yaml`;
    if (item.$ref !== expected) {
      problems.push(
        `openapi.yaml: path ${path} must be \`$ref: ${expected}\` (found ${JSON.stringify(item.$ref ?? item)})`,
      );
    }
  }

  for (const file of listYaml(join(openapiDir, 'paths'))) {
    if (!reached.has(file)) problems.push(`${show(file)}: not referenced from openapi.yaml`);
  }
  for (const file of listYaml(join(openapiDir, 'components'))) {
    const folder = relative(resolve(openapiDir, 'components'), dirname(file));
    if (!componentFolders.includes(folder)) {
      problems.push(`${show(file)}: components live directly in one of components/{${componentFolders.join(',')}}/`);
    }
    if (!reached.has(file)) problems.push(`${show(file)}: unused component (no $ref reaches it from openapi.yaml)`);
  }
  return problems;
}
