// `GET /ready`: whether this process can serve the API now, for a load balancer or a Kubernetes
// readiness probe. 200 when the database (and Redis, when configured) answers a trivial query within
// READY_TIMEOUT_MS; else 503 naming what is down. `/health` stays liveness: the process answers.
import { sql } from 'kysely';
import type { Request, Response } from 'express';
import type { Db } from '../../db/database.js';

const READY_TIMEOUT_MS = 1000;

/** A dependency the probe asks: resolves when it answers, rejects (or stays pending) when it does not. */
export type ReadinessCheck = () => Promise<unknown>;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The handler: every check at once, each bounded by the timeout. */
export function readiness(db: Db, extra: Record<string, ReadinessCheck> = {}) {
  const checks: Record<string, ReadinessCheck> = { database: () => sql`select 1`.execute(db), ...extra };
  return async (_req: Request, res: Response): Promise<void> => {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await within(READY_TIMEOUT_MS, Promise.resolve().then(check));
          return [name, { status: 'up' }] as const;
        } catch (err) {
          return [
            name,
            { status: 'down', reason: err instanceof Error && /^no answer/.test(err.message) ? 'timeout' : 'error' },
          ] as const;
        }
      }),
    );
    const down = results.filter(([, r]) => r.status === 'down').map(([name]) => name);
    if (down.length > 0) res.setHeader('Retry-After', '2');
    res.status(down.length > 0 ? 503 : 200).json({
      status: down.length > 0 ? 'unavailable' : 'ready',
      ...(down.length > 0 ? { down } : {}),
      checks: Object.fromEntries(results),
    });
  };
}
