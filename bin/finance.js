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
// Tracing is loaded first, and only when asked for: it must see express and pg being imported.
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) await import(new URL('../dist/telemetry.js', import.meta.url).href);
await import(main.href);
