// `npm run build:docs` (the last step of `npm run build`): renders the reference pages from the
// public bundle (server/docs.ts) into generated/docs/ — index.html (the sandbox's) and
// production.html (without the sandbox helpers), which a production server only serves.
// `--if-stale`: only the pages older than what they are built from (as the test run's global setup).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildDocs, buildProductionPage, docsPath, publicBundlePath } from '../server/docs.js';
import { productionDocsPath } from '../server/contract/sandbox.js';
import { isFresh, isMain, projectRoot } from './tools.js';

/** What the docs pages are built from: the public bundle, the page's own code, the errors guide, the renderer. */
const DOCS_INPUTS = [
  publicBundlePath,
  ...readdirSync(join(projectRoot, 'server'))
    .filter((name) => name.startsWith('docs') && name.endsWith('.ts'))
    .map((name) => join('server', name)),
  'server/contract/sandbox.ts',
  'docs/errors.md',
  'package-lock.json',
];

/** Renders each docs page written before one of its inputs last changed (or missing). */
export async function buildStaleDocs(): Promise<void> {
  await Promise.all([
    isFresh(docsPath, DOCS_INPUTS) ? undefined : buildDocs(),
    isFresh(productionDocsPath(docsPath), DOCS_INPUTS) ? undefined : buildProductionPage(),
  ]);
}

if (isMain(import.meta.url)) {
  if (process.argv.includes('--if-stale')) await buildStaleDocs();
  else {
    console.log(`docs: ${await buildDocs()}`);
    await buildProductionPage();
    console.log(`docs: ${productionDocsPath(docsPath)}`);
  }
}
