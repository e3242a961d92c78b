// W3C Trace Context (https://www.w3.org/TR/trace-context/): a caller's `traceparent` names the
// trace this request belongs to; the request is a new span in it (a new trace when none came or the
// header is malformed). The log lines about the request (its access line, its error, its idempotency
// record) carry `trace_id` and `span_id` from the request's context (context.ts), and the answer carries `traceparent`
// naming this request's span, so a caller's gateway and our logs join on one id. The context is passed
// explicitly, not through AsyncLocalStorage: on Node 20 its promise hooks slowed every request
// (banking page 1 served ~12 % more requests without them). When OpenTelemetry is loaded
// (server/telemetry.ts) its server span is the request's span, the ids are its ids.
import { trace, type Span } from '@opentelemetry/api';
import type { Request, Response } from 'express';
import { routeOf } from './route.js';
import { contextOf, type TraceContext } from './context.js';

import { randomHex } from '../../lib/random-bytes.js';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS = /^0+$/;
/** At most 32 list members of printable characters (W3C: 512 characters a vendor should keep). */
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/** The caller's trace id and flags, or undefined for an absent or malformed header (then a new trace starts). */
function parseTraceparent(header: string | undefined): { traceId: string; flags: string } | undefined {
  const match = header === undefined ? null : TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as string[];
  if (version === 'ff' || (version === '00' && rest)) return undefined;
  if (ZEROS.test(traceId!) || ZEROS.test(parentId!)) return undefined;
  return { traceId: traceId!, flags: flags! };
}

const tracing = Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT);
/** Where server/telemetry.ts keeps the request's server span. */
const SERVER_SPAN = Symbol.for('finance.server-span');
const serverSpanOf = (req: Request) => (req as unknown as Record<symbol, Span | undefined>)[SERVER_SPAN];

function traceOf(req: Request): TraceContext {
  const state = req.headers.tracestate;
  const traceState = typeof state === 'string' && TRACESTATE.test(state) ? state : undefined;
  const span = tracing ? serverSpanOf(req)?.spanContext() : undefined;
  if (span && trace.isSpanContextValid(span)) {
    return { traceId: span.traceId, spanId: span.spanId, flags: span.traceFlags ? '01' : '00', traceState };
  }
  const header = req.headers.traceparent;
  const parent = parseTraceparent(typeof header === 'string' ? header : undefined);
  return {
    traceId: parent?.traceId ?? randomHex(16),
    spanId: randomHex(8),
    flags: parent?.flags ?? '01',
    traceState,
  };
}

/** The exported server span is named by the contract's route template, set as the answer starts. */
function nameSpanByRoute(req: Request, res: Response): void {
  const span = serverSpanOf(req);
  if (!span) return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
    const route = routeOf(req, res);
    if (route) span.setAttribute('http.route', route).updateName(`${req.method} ${route}`);
    return writeHead.apply(this, args);
  } as Response['writeHead'];
}

/** Starts the request's span context (the prelude keeps it in the request's context) and answers `traceparent`. */
export function startTrace(req: Request, res: Response): TraceContext {
  if (tracing) nameSpanByRoute(req, res);
  const context = traceOf(req);
  res.setHeader('traceparent', `00-${context.traceId}-${context.spanId}-${context.flags}`);
  if (context.traceState) res.setHeader('tracestate', context.traceState);
  return context;
}

/** The log fields of a request's trace context. */
export const traceFields = (context: TraceContext | undefined) =>
  context ? { trace_id: context.traceId, span_id: context.spanId } : {};

/** The log fields naming a request: its id and trace. */
export const requestLogFields = (res: Response) => {
  const context = contextOf(res);
  return { requestId: context.requestId || undefined, ...traceFields(context.trace) };
};
