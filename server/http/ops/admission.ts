// Admission control: at most OVERLOAD_MAX_IN_FLIGHT requests of this process at once; one more is
// answered 503 with Retry-After at once, before it is authenticated or touches the store.
// Load shedding by event-loop lag (overload.ts) does not see a server whose requests wait on the
// store: the loop idles while they queue for a database connection, and each waits longer the more
// are let in (three replicas on one PostgreSQL: admitted requests waited a median of 13 s). A cap on
// the requests in flight bounds that queue, so it bounds their wait: by Little's law, the cap over
// what the store completes per second (scripts/bench-admission.ts, docs/operating.md).
// A request counts from its arrival until its answer is sent or its client leaves. The probes never
// count and are never refused: a process at its cap is busy, not dead or unready.
import type { NextFunction, Request, Response } from 'express';
import { Gauge, type Registry } from 'prom-client';
import { ApiError } from '../../kit/errors.js';
import { contextOf } from '../pipeline/context.js';

const RETRY_AFTER_SECONDS = 1;
const PROBES = new Set(['/health', '/ready', '/metrics']);
const GAUGE = 'finance_requests_in_flight';

/** The admission step of every request but the probes (app.ts mounts it after the prelude, before the pipeline); 0: none. */
export function admission(maxInFlight: number, registry?: Registry) {
  if (maxInFlight <= 0) return undefined;
  let inFlight = 0;
  if (registry && !registry.getSingleMetric(GAUGE))
    new Gauge({
      name: GAUGE,
      help: 'Requests this process is serving (OVERLOAD_MAX_IN_FLIGHT caps them).',
      registers: [registry],
      collect() {
        this.set(inFlight);
      },
    });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (PROBES.has(req.path)) return next();
    if (inFlight >= maxInFlight) {
      contextOf(res).shed = true;
      return next(
        new ApiError(503, 'The server is overloaded, retry shortly', [], {
          'Retry-After': String(RETRY_AFTER_SECONDS),
        }),
      );
    }
    inFlight += 1;
    // A response emits `close` once: after `finish`, or when its connection ends first.
    res.once('close', () => {
      inFlight -= 1;
    });
    next();
  };
}
