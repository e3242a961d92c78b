#!/usr/bin/env node
// The `finance` command: runs the compiled JavaScript in dist/ (`npm run build:server`, which
// `npm start` and the test suite run first). The TypeScript sources run through tsx only in
// development (`npm run dev`).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('finance: dist/ is not built; run `npm run build:server` (or `npm start`) first\n');
  process.exit(1);
}
process.setSourceMapsEnabled(true);
await import(main.href);
