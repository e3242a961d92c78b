// `npm run build:contract` (the first step of `npm run build`): lints the contract, then rebuilds
// generated/ from openapi/ — the public and internal bundles, the TypeScript types (the server's
// from the internal bundle, the client package's from the public one, so an integrator's code
// cannot name an internal operation) — and, from server/settings.ts, docs/configuration.md and
// .env.example. `npm run build` then compiles the server and renders the docs pages.
// `npm run build:check` (--check): builds into a temporary folder and fails when a committed
// generated file differs (`npm run check` lints before it). The docs pages are exempt: they are
// git-ignored and built by `npm run build` (`npm run build:docs`).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { configurationMarkdown, envExample } from '../server/settings.js';
import { lintContract } from './lint-contract.js';
import { isMain, mustRunTool, projectRoot } from './tools.js';

export const generatedDir = resolve(projectRoot, 'generated');
export const clientGeneratedDir = resolve(projectRoot, 'client', 'generated');
/** Committed generated files: name in the build folder → where it is committed. */
export const generatedFiles: Record<string, string> = {
  'openapi.internal.json': join(generatedDir, 'openapi.internal.json'),
  'openapi.public.json': join(generatedDir, 'openapi.public.json'),
  'openapi.d.ts': join(generatedDir, 'openapi.d.ts'),
  'openapi.public.d.ts': join(clientGeneratedDir, 'openapi.d.ts'),
  'configuration.md': resolve(projectRoot, 'docs', 'configuration.md'),
  'env.example': resolve(projectRoot, '.env.example'),
};

/** Writes the bundles and the types into `out` (the client's types as `openapi.public.d.ts`). */
export async function buildGenerated(out: string): Promise<void> {
  const bundle = (api: string, extra: string[]) =>
    mustRunTool('redocly', [
      'bundle',
      api,
      '-o',
      join(out, `openapi.${api}.json`),
      '--component-renaming-conflicts-severity=error',
      ...extra,
    ]);
  await Promise.all([
    bundle('internal', []),
    // Components used only by internal operations must not leak into the public contract.
    bundle('public', ['--remove-unused-components']),
  ]);
  // openapi-typescript reads redocly.yaml's `apis:` when it finds it and would ignore the input
  // file, hence its own empty Redocly config.
  const types = (api: string, file: string) =>
    mustRunTool('openapi-typescript', [
      join(out, `openapi.${api}.json`),
      '--redocly',
      'openapi-typescript.redocly.yaml',
      '-o',
      join(out, file),
    ]);
  await Promise.all([types('internal', 'openapi.d.ts'), types('public', 'openapi.public.d.ts')]);
  writeFileSync(join(out, 'configuration.md'), configurationMarkdown());
  writeFileSync(join(out, 'env.example'), envExample());
}

/** Copies a build folder's files to where they are committed. */
function commitGenerated(out: string): void {
  for (const [file, target] of Object.entries(generatedFiles)) {
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(out, file), target);
  }
}

/** The committed generated files that differ from a fresh build of openapi/. */
export async function staleGeneratedFiles(): Promise<string[]> {
  const out = mkdtempSync(join(tmpdir(), 'contract-'));
  try {
    await buildGenerated(out);
    return Object.entries(generatedFiles)
      .filter(
        ([file, committed]) =>
          !existsSync(committed) || readFileSync(committed, 'utf8') !== readFileSync(join(out, file), 'utf8'),
      )
      .map(([, committed]) => relative(projectRoot, committed));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  if (process.argv.includes('--check')) {
    const stale = await staleGeneratedFiles();
    if (stale.length > 0) {
      console.error(
        `generated files are stale: ${stale.join(', ')}. Run \`npm run build:contract\` and commit the result.`,
      );
      return 1;
    }
    console.log('generated/ is up to date');
    return 0;
  }
  if (!(await lintContract())) return 1;
  const out = mkdtempSync(join(tmpdir(), 'contract-'));
  try {
    await buildGenerated(out);
    commitGenerated(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  console.log(
    `built ${Object.values(generatedFiles)
      .map((file) => relative(projectRoot, file))
      .join(', ')}`,
  );
  return 0;
}

if (isMain(import.meta.url)) process.exitCode = await main();
