// `GET /ready`: whether this process can serve the API now, for a load balancer or a Kubernetes
// readiness probe. It answers from what the process keeps and asks no dependency itself, so it answers
// as soon as the event loop reaches it, however many queries wait for a database connection (asking the
// database per request put it behind them: up to a second under load, and a 503 for a merely busy pool).
// In the background each dependency (the database, Redis when configured) is probed every second; one
// is down after two probes in a row failed (an error, or no answer within a second; the second probe
// 250 ms after the first failure) and up again when one answers: one slow answer is not an outage.
// Once the process is stopping (server/main.ts) it answers 503 `draining` while it still serves.
// `/health` stays liveness: the process answers.
import type { Request, Response } from 'express';
import type { Logger } from 'pino';

/** How often a dependency that answers is probed. */
const PROBE_EVERY_MS = 1000;
/** A failed probe is confirmed (or not) this soon. */
const CONFIRM_AFTER_MS = 250;
/** A probe not answered within this has failed. */
const PROBE_TIMEOUT_MS = 1000;
/** Failed probes in a row that make a dependency down. */
const FAILURES_FOR_DOWN = 2;

/** A dependency's probe: resolves when it answers, rejects (or stays pending) when it does not. */
type ReadinessCheck = (timeoutMs: number) => Promise<unknown>;

type CheckState = { status: 'up' } | { status: 'down'; reason: 'timeout' | 'error' };

export interface Readiness {
  /** Probes every dependency now and every second from then on; resolves once each has a state. */
  start(): Promise<void>;
  /** No more probes (the process is stopping). */
  stop(): void;
  /** From now on `/ready` answers 503 `draining`: the process is about to stop serving. */
  drain(): void;
  /** The `/ready` handler: the kept states (it starts the probes on its first call when nothing did). */
  handler(req: Request, res: Response): Promise<void>;
}

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** One probe of `check`: up, or why not. */
async function probe(check: ReadinessCheck): Promise<CheckState> {
  try {
    await within(
      PROBE_TIMEOUT_MS,
      Promise.resolve().then(() => check(PROBE_TIMEOUT_MS)),
    );
    return { status: 'up' };
  } catch (err) {
    return { status: 'down', reason: err instanceof Error && /^no answer/.test(err.message) ? 'timeout' : 'error' };
  }
}

/** The kept readiness of `checks`, probed in the background once started; changes are logged. */
export function watchReadiness(checks: Record<string, ReadinessCheck>, logger?: Logger): Readiness {
  const states = new Map<string, CheckState>();
  const timers = new Set<NodeJS.Timeout>();
  let started: Promise<void> | undefined;
  let stopped = false;
  let draining = false;

  /** Probes `check` until stopped; resolves once it has a state. */
  const watch = (name: string, check: ReadinessCheck) =>
    new Promise<void>((settled) => {
      let failures = 0;
      const round = async () => {
        const outcome = await probe(check);
        if (stopped) return settled();
        failures = outcome.status === 'up' ? 0 : failures + 1;
        const before = states.get(name);
        if (outcome.status === 'up' || failures >= FAILURES_FOR_DOWN) {
          states.set(name, outcome);
          if (before && before.status !== outcome.status) {
            if (outcome.status === 'down')
              logger?.warn(
                { check: name, reason: outcome.reason },
                `not ready: ${name} failed ${failures} probes in a row`,
              );
            else logger?.info({ check: name }, `ready: ${name} answers again`);
          }
          settled();
        }
        const timer = setTimeout(
          () => {
            timers.delete(timer);
            void round();
          },
          failures > 0 && failures < FAILURES_FOR_DOWN ? CONFIRM_AFTER_MS : PROBE_EVERY_MS,
        );
        timer.unref();
        timers.add(timer);
      };
      void round();
    });

  const start = () => {
    started ??= Promise.all(Object.entries(checks).map(([name, check]) => watch(name, check))).then(() => undefined);
    return started;
  };

  return {
    start,
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
    drain() {
      draining = true;
    },
    async handler(_req, res) {
      await start();
      const results = Object.fromEntries(Object.keys(checks).map((name) => [name, states.get(name)]));
      const down = [...states].filter(([, state]) => state.status === 'down').map(([name]) => name);
      if (draining) {
        res.status(503).json({ status: 'draining', checks: results });
        return;
      }
      if (down.length > 0) res.setHeader('Retry-After', '2');
      res.status(down.length > 0 ? 503 : 200).json({
        status: down.length > 0 ? 'unavailable' : 'ready',
        ...(down.length > 0 ? { down } : {}),
        checks: results,
      });
    },
  };
}
