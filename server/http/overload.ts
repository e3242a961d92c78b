// Load shedding: when the event loop falls behind, new API requests are answered at once with
// 503 and Retry-After instead of queueing behind work the server cannot finish in time, so the
// latency of the requests it does serve stays bounded. The lag is the event-loop delay measured by
// perf_hooks (mean over the last sampling window, minus the timer resolution); a window above
// `maxEventLoopDelayMs` turns shedding on until a later window comes in below it.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './errors.js';

/** How far behind the event loop is, in milliseconds. */
export interface LagProbe {
  lagMs(): number;
  stop(): void;
}

const RESOLUTION_MS = 10;

/** Event-loop delay averaged over windows of `windowMs` (the last complete window is reported). */
export function eventLoopLag(windowMs = 200): LagProbe {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let last = 0;
  const timer = setInterval(() => {
    last = Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS);
    if (Number.isNaN(last)) last = 0;
    histogram.reset();
  }, windowMs);
  timer.unref();
  return {
    lagMs: () => last,
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

export const RETRY_AFTER_SECONDS = 1;

/** Sheds requests while `probe` reports more than `maxLagMs`; 0 turns shedding off. */
export function shedOverload(maxLagMs: number, probe: () => LagProbe) {
  if (maxLagMs <= 0) return (_req: Request, _res: Response, next: NextFunction) => next();
  const lag = probe();
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (lag.lagMs() <= maxLagMs) return next();
    res.locals.shed = true;
    next(
      new ApiError(503, 'The server is overloaded, retry shortly', [], { 'Retry-After': String(RETRY_AFTER_SECONDS) }),
    );
  };
}
