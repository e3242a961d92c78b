// What a production Fastify service does around each request, for the bench's `Fastify with duties`
// peer (fastify-peer.ts started with `duties`): a pino access line per request, a request id (the
// caller's X-Request-Id when sane, otherwise a new one, answered), W3C traceparent (the caller's trace
// continued in a new span, answered), @fastify/helmet's security headers, @fastify/etag's ETags and a
// prom-client latency histogram by method, route and status.
import { randomBytes, randomUUID } from 'node:crypto';
import etag from '@fastify/etag';
import helmet from '@fastify/helmet';
import { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { pino } from 'pino';
import { Histogram, Registry } from 'prom-client';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** Fastify's options for the duties: pino at info to stdout, request ids from X-Request-Id. */
export const dutiesOptions = (): FastifyServerOptions => ({
  loggerInstance: pino({ level: 'info' }) as never,
  // One access line per request (onResponse below), not Fastify's two.
  logController: new LogController({ disableRequestLogging: true }),
  requestIdHeader: false,
  genReqId: (req) => {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' && SANE.test(given) ? given : randomUUID();
  },
});

/** Registers the per-request duties; call before the routes. */
export async function registerDuties(app: FastifyInstance) {
  const registry = new Registry();
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  await app.register(helmet);
  await app.register(etag);
  app.addHook('onRequest', async (req, reply) => {
    const header = req.headers.traceparent;
    const parent = typeof header === 'string' ? TRACEPARENT.exec(header) : null;
    const traceId = parent?.[1] ?? randomBytes(16).toString('hex');
    const spanId = randomBytes(8).toString('hex');
    reply.header('x-request-id', req.id);
    reply.header('traceparent', `00-${traceId}-${spanId}-${parent?.[3] ?? '01'}`);
    (req as unknown as { trace: object }).trace = { trace_id: traceId, span_id: spanId };
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unknown';
    const ms = reply.elapsedTime;
    histogram.observe({ method: req.method, route, status: reply.statusCode }, ms / 1000);
    req.log.info(
      {
        ...(req as unknown as { trace: object }).trace,
        method: req.method,
        url: req.url,
        status: reply.statusCode,
        ms: Math.round(ms * 10) / 10,
      },
      'request',
    );
  });
  app.get('/metrics', async (_req, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}
