// Prometheus metrics (prom-client), named after OpenTelemetry's semantic conventions with dots as
// underscores. Two registries make up one scrape:
//  - the process's: Node and process defaults (event-loop lag included), the database pool, write
//    transaction retries, the rate-limit store's fallbacks — one per process, whatever it serves;
//  - the app's (createApp): requests by method, route template and status, sheds, 503s of the
//    store, rate-limit refusals, idempotent replays, kept answers, and the webhook queue and ingest runs read
//    from the database at scrape time.
// With `--workers N` the cluster primary sums every worker's registries (metrics-cluster.ts).
import type { Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { storeEvents } from '../../db/errors.js';
import { poolUsage } from '../../db/postgres.js';
import type { Db } from '../../db/database.js';
import { routeOf } from '../pipeline/route.js';
import type { RequestContext } from '../pipeline/context.js';
import { queueFigures } from './metrics-queue.js';

let processRegistry: Registry | undefined;

/** Figures of the process itself, registered once however many apps it creates (tests create many). */
export function processMetrics(): Registry {
  if (processRegistry) return processRegistry;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'db_client_connection_count',
    help: 'Database connections of this process by state (PostgreSQL pool).',
    labelNames: ['db_client_connection_state'],
    registers: [registry],
    collect() {
      const usage = poolUsage();
      this.set({ db_client_connection_state: 'used' }, usage.total - usage.idle);
      this.set({ db_client_connection_state: 'idle' }, usage.idle);
    },
  });
  new Gauge({
    name: 'db_client_connection_pending_requests',
    help: 'Queries waiting for a pool connection.',
    registers: [registry],
    collect() {
      this.set(poolUsage().waiting);
    },
  });
  new Counter({
    name: 'finance_db_transaction_retries_total',
    help: 'Write transactions run again after a serialization conflict or deadlock.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(storeEvents.transactionRetries);
    },
  });
  rateLimitFallbacks = new Counter({
    name: 'finance_rate_limit_store_fallbacks_total',
    help: 'Rate-limit counts taken by the fallback store because the shared store (Redis) failed.',
    registers: [registry],
  });
  processRegistry = registry;
  return registry;
}

let rateLimitFallbacks: Counter | undefined;

/** One rate-limit count taken by the fallback store. */
export const countRateLimitFallback = () => {
  processMetrics();
  rateLimitFallbacks?.inc();
};

export type AppMetrics = ReturnType<typeof appMetrics>;

/** The app's registry and the middleware that records every answered request into it. */
export function appMetrics(db: Db) {
  const registry = new Registry();
  const registers = [registry];
  const duration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests, by method, contract route template and status.',
    labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
    registers,
  });
  const shed = new Counter({ name: 'finance_requests_shed_total', help: 'Requests shed (503) under load.', registers });
  const unavailable = new Counter({
    name: 'finance_store_unavailable_responses_total',
    help: 'Requests answered 503 because the store could not answer (reason: database down, or busy).',
    labelNames: ['reason'],
    registers,
  });
  const refused = new Counter({
    name: 'finance_rate_limit_refusals_total',
    help: 'Requests refused with 429 by the per-client rate limit.',
    registers,
  });
  const replays = new Counter({
    name: 'finance_idempotent_replays_total',
    help: 'Answers replayed for a repeated Idempotency-Key.',
    registers,
  });
  const kept = new Counter({
    name: 'finance_kept_answers_total',
    help: 'Statement list and feed answers given again from memory under the same ETag (ANSWER_CACHE_MB).',
    registers,
  });
  queueFigures(db, registry);

  /** Records an answered request (the prelude calls it when the answer is sent). */
  const record = (req: Request, res: Response, context: RequestContext): void => {
    const status = res.statusCode;
    duration.observe(
      { http_request_method: req.method, http_route: routeOf(req, res) ?? '', http_response_status_code: status },
      Number(process.hrtime.bigint() - context.startedNs) / 1e9,
    );
    if (context.shed) shed.inc();
    if (context.dependencyFailure) unavailable.inc({ reason: context.dependencyFailure });
    if (context.rateLimited) refused.inc();
    if (res.getHeader('Idempotent-Replayed') === 'true') replays.inc();
    if (context.keptAnswer) kept.inc();
  };
  return { registry, record };
}

/** Both registries as one, in Prometheus text format. */
export const scrape = (app: AppMetrics) => Registry.merge([processMetrics(), app.registry]).metrics();
