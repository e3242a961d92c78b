// OpenTelemetry tracing, loaded by bin/finance.js before anything else only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (off, nothing of the SDK is loaded). Spans of HTTP requests,
// Express and PostgreSQL queries go to that endpoint through the OTLP exporter the standard
// OTEL_* variables configure (OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER…).
// ES modules are instrumented through the loader hook registered here, before they are imported.
import { register } from 'node:module';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

const [{ NodeSDK }, { HttpInstrumentation }, { ExpressInstrumentation }, { PgInstrumentation }] = await Promise.all([
  import('@opentelemetry/sdk-node'),
  import('@opentelemetry/instrumentation-http'),
  import('@opentelemetry/instrumentation-express'),
  import('@opentelemetry/instrumentation-pg'),
]);

const sdk = new NodeSDK({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'company-finance-service',
  instrumentations: [
    // The request's server span, kept on the request for trace-context.ts (Express's own middleware
    // spans are the active ones by the time our middleware runs).
    new HttpInstrumentation({
      requestHook: (span, request) => {
        (request as unknown as Record<symbol, unknown>)[Symbol.for('finance.server-span')] = span;
      },
    }),
    new ExpressInstrumentation(),
    new PgInstrumentation({ enhancedDatabaseReporting: false }),
  ],
});
sdk.start();
