// `npm run build:docs` (the last step of `npm run build`): renders the reference pages from the
// public bundle (server/docs.ts) into generated/docs/ — index.html (the sandbox's) and
// production.html (without the sandbox helpers), which a production server only serves.
import { buildDocs, buildProductionPage, docsPath } from '../server/docs.js';
import { productionDocsPath } from '../server/contract/sandbox.js';
import { isMain } from './tools.js';

if (isMain(import.meta.url)) {
  console.log(`docs: ${await buildDocs()}`);
  await buildProductionPage();
  console.log(`docs: ${productionDocsPath(docsPath)}`);
}
