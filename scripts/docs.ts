// `npm run build:docs`: builds generated/docs/index.html from the public bundle (server/docs.ts).
import { buildDocs } from '../server/docs.js';
import { isMain } from './tools.js';

if (isMain(import.meta.url)) console.log(`docs: ${await buildDocs()}`);
