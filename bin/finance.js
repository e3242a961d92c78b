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
// A server's V8 heap settings (dist/http/ops/heap-growth.js), before the modules load: their start-up
// garbage is then collected as tightly as what requests leave.
if (process.argv[2] === 'serve')
  (await import(new URL('../dist/http/ops/heap-growth.js', import.meta.url).href)).boundHeapGrowth();
// Tracing is loaded first, and only when asked for: it must see express and pg being imported.
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) await import(new URL('../dist/telemetry.js', import.meta.url).href);
await import(main.href);
