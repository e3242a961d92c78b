#!/usr/bin/env node
// The `finance` sandbox command. Runs the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
// Tracing is loaded first, and only when asked for: it must see express and pg being imported.
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) await import('../server/telemetry.ts');
await import('../server/cli/main.ts');
