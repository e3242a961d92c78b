// `npm run contract:release [-- --allow-breaking]`: makes the current public bundle the released
// baseline (openapi/released/openapi.json) and adds a dated entry to openapi/CHANGELOG.md.
// Refuses when generated/ is stale, when info.version was not raised, and when the change is
// breaking — unless --allow-breaking is given and the major version was raised.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { staleGeneratedFiles } from './build-contract.js';
import { baselinePath, diffContracts, publicBundlePath, readSpec } from './contract-diff.js';
import { isMain, projectRoot } from './tools.js';

export const changelogPath = resolve(projectRoot, 'openapi', 'CHANGELOG.md');
const changelogHeader = `# Contract changelog

Released versions of the public contract, newest first. Each entry is written by
\`npm run contract:release\`, which also moves the breaking-change baseline
(\`released/openapi.json\`) that \`npm run contract:diff\` compares against.
`;
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Operation = { operationId?: string; tags?: string[] };
type Spec = { info: { version: string }; tags?: { name: string }[]; paths: Record<string, Record<string, Operation>> };

const today = (now = new Date()) =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
const major = (version: string) => Number(version.split('.')[0]);

function operationsOf(spec: Spec): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of methods) if (item[method]) operations.set(`${method.toUpperCase()} ${path}`, item[method]);
  }
  return operations;
}

function firstReleaseLines(spec: Spec): string[] {
  const operations = [...operationsOf(spec).values()];
  const lines = [`First released contract: ${operations.length} operations.`, ''];
  for (const { name } of spec.tags ?? []) {
    const ids = operations.filter((op) => op.tags?.[0] === name).map((op) => `\`${op.operationId}\``);
    if (ids.length > 0) lines.push(`- ${name}: ${ids.join(', ')}`);
  }
  return lines;
}

async function changeLines(base: Spec, head: Spec, allowBreaking: boolean): Promise<string[]> {
  const diff = await diffContracts(baselinePath, publicBundlePath);
  if (diff.breaking && !allowBreaking) {
    throw new Error(`breaking changes (see \`npm run contract:diff\`):\n${diff.findings.join('\n')}`);
  }
  if (diff.breaking && major(head.info.version) <= major(base.info.version)) {
    throw new Error(
      `a breaking release needs a new major version (released ${base.info.version}, now ${head.info.version})`,
    );
  }
  const named = (spec: Spec, ops: string[]) =>
    ops.map((op) => `\`${op}\` (${operationsOf(spec).get(op)?.operationId ?? '?'})`);
  const lines: string[] = [];
  const section = (title: string, items: string[]) => {
    if (items.length > 0) lines.push(`- ${title}: ${items.join(', ')}`);
  };
  section('Added', named(head, diff.operations.added));
  section('Changed', named(head, diff.operations.changed));
  lines.push(...diff.details.map((detail) => `  - ${detail}`));
  section('Removed', named(base, diff.operations.removed));
  if (diff.breaking) lines.push('', 'Breaking changes:', ...diff.findings.map((finding) => `- ${finding}`));
  return lines.length > 0 ? lines : ['- Descriptions and examples only; no operation changed.'];
}

async function main(): Promise<number> {
  const stale = await staleGeneratedFiles();
  if (stale.length > 0) throw new Error(`generated/ is stale (${stale.join(', ')}): run \`npm run build\` first`);
  const head = readSpec(publicBundlePath) as Spec;
  let lines: string[];
  if (existsSync(baselinePath)) {
    if (readFileSync(baselinePath, 'utf8') === readFileSync(publicBundlePath, 'utf8')) {
      console.log('contract:release: the public contract equals the released one; nothing to release');
      return 0;
    }
    const base = readSpec(baselinePath) as Spec;
    if (head.info.version === base.info.version) {
      throw new Error(`info.version is still ${base.info.version}: raise it in openapi/openapi.yaml and rebuild`);
    }
    lines = await changeLines(base, head, process.argv.includes('--allow-breaking'));
  } else {
    lines = firstReleaseLines(head);
  }

  const entry = [`## ${head.info.version} — ${today()}`, '', ...lines, ''].join('\n');
  const changelog = existsSync(changelogPath) ? readFileSync(changelogPath, 'utf8') : changelogHeader;
  const firstEntry = changelog.indexOf('\n## ');
  const updated =
    firstEntry < 0
      ? `${changelog.trimEnd()}\n\n${entry}`
      : `${changelog.slice(0, firstEntry + 1)}${entry}\n${changelog.slice(firstEntry + 1)}`;
  mkdirSync(dirname(baselinePath), { recursive: true });
  copyFileSync(publicBundlePath, baselinePath);
  writeFileSync(changelogPath, updated);
  console.log(`contract:release: released ${head.info.version}\n\n${entry}`);
  return 0;
}

if (isMain(import.meta.url)) {
  process.exitCode = await main().catch((error: Error) => {
    console.error(`contract:release: ${error.message}`);
    return 1;
  });
}
