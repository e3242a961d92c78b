// Structured JSON logs: one line per request with request id, method, route, status and duration.
// Credentials and card data never reach a log line. The process's own log goes to stdout through
// an asynchronous writer that batches lines up to 4 KiB and flushes at least every 250 ms (and on
// exit), so a request neither waits for the terminal or a pipe nor pays a write of its own.
// The lines about a request carry its `trace_id` and `span_id` (trace-context.ts).
import { pino, type Logger } from 'pino';
import type { Request, Response } from 'express';
import { routeOf } from './route.js';
import { traceFields } from './trace-context.js';
import type { RequestContext } from './context.js';

/** Probes (`/health`, `/ready`) are logged at debug: an orchestrator calls them every few seconds. */
const PROBES = new Set(['/health', '/ready']);

const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.access_token',
  '*.client_secret',
  '*.clientSecret',
  '*.pan',
  '*.cvv',
  '*.card',
  'card.pan',
  'card.cvv',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const stream = destination ?? (level === 'silent' ? undefined : batchedStdout());
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } }, stream as never);
}

const FLUSH_EVERY_MS = 250;

function batchedStdout() {
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      stream.flush();
    } catch {
      // closed at shutdown
    }
  }, FLUSH_EVERY_MS).unref();
  return stream;
}

/**
 * The access line of each request, written once it is answered (or the client went away; the prelude
 * calls it): `req` {id, method, url without the query}, `operationId` and `route` (the contract's
 * operation and path template), `res` {statusCode}, `responseTime` in ms, `companyId` and `clientId`
 * of an authenticated request (never its token), `trace_id` and `span_id`, and what the handler added
 * (`export` {filters, rows, completed} on a statement export; on the token endpoint the `clientId`
 * it was asked for). A refusal (401, 403, 429) carries `remoteAddress`; a 503 is logged at warn with
 * the `dependency` that failed; a request cut before its answer, as aborted with status 499. Probes
 * answered 2xx are logged at debug.
 */
/** The status an access line gives a request whose answer was never completed. */
const ABORTED = 499;

export function accessLog(logger: Logger) {
  // These lines hold only the fields below (no headers, bodies or query strings), which none of the
  // REDACT paths can match: the child skips the redaction pass.
  const lines = logger.child({}, { redact: [] });
  return (req: Request, res: Response, context: RequestContext): void => {
    const status = res.statusCode;
    const url = req.originalUrl;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const finished = res.writableFinished;
    // 503 is a state (a dependency down, shedding, no card issuer) with its own throttled cause
    // line: warn, so that an outage is not one error-level alert per request.
    const level =
      status === 503 ? 'warn' : status >= 500 ? 'error' : status < 300 && PROBES.has(path) ? 'debug' : 'info';
    if (!lines.isLevelEnabled(level)) return;
    const auth = context.auth;
    lines[level](
      {
        req: { id: context.requestId, method: req.method, url: path },
        operationId: context.match?.operation.operationId,
        route: routeOf(req, res),
        companyId: auth?.companyId,
        clientId: auth?.clientId,
        // Cut before its answer was written (the caller left, or the shutdown grace ended): 499, as nginx logs it.
        res: { statusCode: finished ? status : ABORTED },
        ...(status === 503 && context.dependencyFailure ? { dependency: context.dependencyFailure } : {}),
        ...(status === 401 || status === 403 || status === 429 ? { remoteAddress: req.ip } : {}),
        responseTime: Math.round(Number(process.hrtime.bigint() - context.startedNs) / 1e6),
        ...traceFields(context.trace),
        ...context.logFields,
      },
      finished ? (status >= 500 ? 'request errored' : 'request completed') : 'request aborted',
    );
  };
}
