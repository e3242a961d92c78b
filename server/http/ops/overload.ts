// Load shedding: when work queues up faster than the server clears it, new API requests are
// answered at once with 503 and Retry-After instead of queueing behind work the server cannot
// finish in time, so the latency of the requests it does serve stays bounded.
// What counts is the standing queue, as CoDel counts it: the *least* event-loop delay seen over a
// sampling window of 500 ms (perf_hooks, minus the timer resolution). A busy but healthy server has bursts —
// a garbage collection, fifty requests arriving together — that delay some turns of the loop and
// raise the mean, but the loop catches up within the window and the minimum stays low, so it sheds
// nothing. An overloaded one is late on every turn: the minimum itself rises above
// `maxEventLoopDelayMs`, shedding starts, and stops with the first window that comes in below it.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Step } from '../pipeline/context.js';
import { ApiError } from '../../kit/errors.js';

/** How far behind the event loop is, in milliseconds. */
export interface LagProbe {
  lagMs(): number;
  stop(): void;
}

const RESOLUTION_MS = 10;

/** The least event-loop delay over windows of `windowMs` (the last complete window is reported). */
export function eventLoopLag(windowMs = 500): LagProbe {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let last = 0;
  const timer = setInterval(() => {
    // A window without a sample (start-up, or one turn blocking throughout) says nothing new.
    if (histogram.count > 0) last = Math.max(0, histogram.min / 1e6 - RESOLUTION_MS);
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

const RETRY_AFTER_SECONDS = 1;

/** Sheds requests while `probe` reports more than `maxLagMs` (one step for every operation); 0: no step. */
export function shedOverload(maxLagMs: number, probe: () => LagProbe): Step | undefined {
  if (maxLagMs <= 0) return undefined;
  const lag = probe();
  return (_req, _res, context) => {
    if (lag.lagMs() <= maxLagMs) return;
    context.shed = true;
    throw new ApiError(503, 'The server is overloaded, retry shortly', [], {
      'Retry-After': String(RETRY_AFTER_SECONDS),
    });
  };
}
