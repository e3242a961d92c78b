// `npm run build`: lints the contract, then rebuilds generated/ from openapi/ — the public and
// internal bundles, the TypeScript types (from the internal bundle) and the docs page.
// `npm run build:check` (--check): builds into a temporary folder and fails when a committed
// generated file differs (`npm run check` lints before it). The docs page is exempt: it is
// git-ignored and built on demand.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildDocs } from '../server/docs.js';
import { lintContract } from './lint-contract.js';
import { isMain, mustRunTool, projectRoot } from './tools.js';

export const generatedDir = resolve(projectRoot, 'generated');
export const generatedFiles = ['openapi.internal.json', 'openapi.public.json', 'openapi.d.ts'];

/** Writes the bundles and the types into `out`. */
export async function buildGenerated(out: string): Promise<void> {
  const bundle = (api: string, extra: string[]) =>
    mustRunTool('redocly', [
      'bundle', api, '-o', join(out, `openapi.${api}.json`),
      '--component-renaming-conflicts-severity=error', ...extra,
    ]);
  await Promise.all([
    bundle('internal', []),
    // Components used only by internal operations must not leak into the public contract.
    bundle('public', ['--remove-unused-components']),
  ]);
  // openapi-typescript reads redocly.yaml's `apis:` when it finds it and would ignore the input
  // file, hence its own empty Redocly config.
  await mustRunTool('openapi-typescript', [
    join(out, 'openapi.internal.json'), '--redocly', 'openapi-typescript.redocly.yaml', '-o', join(out, 'openapi.d.ts'),
  ]);
}

/** The committed generated files that differ from a fresh build of openapi/. */
export async function staleGeneratedFiles(): Promise<string[]> {
  const out = mkdtempSync(join(tmpdir(), 'contract-'));
  try {
    await buildGenerated(out);
    return generatedFiles.filter((file) => {
      const committed = join(generatedDir, file);
      return !existsSync(committed) || readFileSync(committed, 'utf8') !== readFileSync(join(out, file), 'utf8');
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  if (process.argv.includes('--check')) {
    const stale = await staleGeneratedFiles();
    if (stale.length > 0) {
      console.error(`generated/ is stale: ${stale.join(', ')}. Run \`npm run build\` and commit the result.`);
      return 1;
    }
    console.log('generated/ is up to date');
    return 0;
  }
  if (!(await lintContract())) return 1;
  await buildGenerated(generatedDir);
  console.log(`built ${generatedFiles.map((file) => `generated/${file}`).join(', ')}`);
  console.log(`built ${await buildDocs()}`);
  return 0;
}

if (isMain(import.meta.url)) process.exitCode = await main();
