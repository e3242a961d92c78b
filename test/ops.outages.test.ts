// Dependencies failing under a real `finance serve`: the server reaches PostgreSQL and Redis through
// a TCP proxy the test cuts, blocks and restores (the shared services keep running). The API answers
// 503 with Retry-After or keeps serving, never 500, the process lives, and it recovers by itself.
// `/ready` follows the background probes (two failures in a row: down), so it is asked until it turns;
// a database merely busy (every pooled connection waiting on a lock) keeps it 200.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Db } from '../server/db/database.js';
import { openStore } from '../server/db/store.js';
import { systemClock } from '../server/lib/clock.js';
import { createCompany } from '../server/areas/auth/store.js';
import { freshDatabase, onPostgres } from './support/database.js';
import { sharedCompany, startServerProcess, type ServerProcess, type SharedCompany } from './support/processes.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

let dir: string;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ops-outages-'));
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `probe` until it gives true, at most `attempts` times a quarter second apart. */
async function eventually(probe: () => Promise<boolean>, attempts = 80): Promise<boolean> {
  for (let i = 0; i < attempts; i += 1) {
    if (await probe()) return true;
    await sleep(250);
  }
  return false;
}

/** A server process on a fresh database with one company; `location` as the server sees it. */
async function serverOn(location: (direct: string) => string, env: Record<string, string>) {
  const direct = await freshDatabase(dir, `${Math.random().toString(36).slice(2)}.sqlite`);
  const db: Db = (await openStore(direct)).db;
  cleanups.push(() => db.destroy());
  await createCompany(db, systemClock, { name: 'Bootstrap Ltda' });
  const server = await startServerProcess(location(direct), { env });
  cleanups.push(() => server.stop());
  const company = await sharedCompany(db, [server]);
  return { db, server, company };
}

/** `n` reads at once; their statuses, sorted. */
async function reads(company: SharedCompany, n: number): Promise<number[]> {
  const results = await Promise.all(
    Array.from({ length: n }, () => company.apis[0]!.GET('/cost-centers/v1/cost-centers')),
  );
  return results.map((r) => r.response.status).sort();
}

const status = async (server: ServerProcess, path: string) => (await fetch(`${server.baseUrl}${path}`)).status;

describe.runIf(onPostgres)('PostgreSQL refusing connections', () => {
  let proxy: TcpProxy;
  let server: ServerProcess;
  let company: SharedCompany;

  beforeAll(async () => {
    proxy = await startTcpProxy(5432);
    cleanups.push(() => proxy.close());
    ({ server, company } = await serverOn((url) => url.replace(':5432/', `:${proxy.port}/`), {
      // The cut refuses connections at once; the timeout only bounds opening the pool on a busy machine.
      PG_CONNECT_TIMEOUT_MS: '5000',
    }));
  }, 90_000);

  it('when the database goes away under load, then the API answers 503 with Retry-After, /ready 503, /health 200, and the process lives', async () => {
    // Warm: the pool's connections are open before the cut (a busy machine may time out the first ones).
    expect(await eventually(async () => (await reads(company, 10)).every((s) => s === 200), 20)).toBe(true);
    const load = reads(company, 20);
    await proxy.cut();
    const during = await load;
    expect(during.every((s) => s === 200 || s === 503)).toBe(true);

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => company.apis[0]!.GET('/cost-centers/v1/cost-centers')),
    );
    for (const { response, error } of answers) {
      expect(response.status).toBe(503);
      expect(response.headers.get('Retry-After')).toBe('2');
      expect(error).toMatchObject({ code: 503, requestId: response.headers.get('X-Request-Id') });
    }
    expect(await eventually(async () => (await status(server, '/ready')) === 503, 20)).toBe(true);
    const ready = await fetch(`${server.baseUrl}/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('Retry-After')).toBe('2');
    expect(await ready.json()).toMatchObject({ status: 'unavailable', down: ['database'] });
    expect(await status(server, '/health')).toBe(200);
    expect(server.child.exitCode).toBeNull();
    expect(await eventually(async () => /database unavailable/.test(server.stdout()))).toBe(true);
  });

  it('when the database returns, then the API answers 200 again without a restart', async () => {
    expect(server.child.exitCode, server.stderr()).toBeNull();
    await proxy.restore();
    expect(await eventually(async () => (await status(server, '/ready')) === 200)).toBe(true);
    expect(await reads(company, 10)).toEqual(Array(10).fill(200));
    expect(server.child.exitCode).toBeNull();
  });
});

describe.runIf(onPostgres)('PostgreSQL busy, not down', () => {
  it('when every pooled connection waits on a lock, then /ready still answers 200, and the waiting reads answer 200 once it is released', async () => {
    const { db, server, company } = await serverOn((url) => url, { PG_POOL_SIZE: '2' });
    expect(await reads(company, 2)).toEqual([200, 200]);
    const statuses = await db.transaction().execute(async (trx) => {
      await sql`lock table cost_centers in access exclusive mode`.execute(trx);
      // Two reads take the pool's two connections and wait on the lock; other queries queue for one.
      const waiting = reads(company, 2);
      const asked: number[] = [];
      // Long enough for probes through the pool to have failed twice (each gives up after 1 s).
      for (let i = 0; i < 6; i += 1) {
        await sleep(500);
        asked.push(await status(server, '/ready'));
      }
      return { asked, waiting };
    });
    expect(statuses.asked).toEqual(Array(6).fill(200));
    expect(await statuses.waiting).toEqual([200, 200]);
  });
});

describe('Redis failing under the rate limiter', () => {
  let proxy: TcpProxy;
  let server: ServerProcess;
  let company: SharedCompany;
  let redis: Redis;
  let db: Db;

  beforeAll(async () => {
    proxy = await startTcpProxy(6379);
    cleanups.push(() => proxy.close());
    redis = new Redis('redis://127.0.0.1:6379');
    cleanups.push(() => redis.quit());
    ({ db, server, company } = await serverOn((location) => location, {
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      RATE_LIMIT_PER_MINUTE: '10000',
    }));
  }, 90_000);

  /** This company's count in Redis for the current window (rate-limit-redis keys: prefix + key). */
  const redisHits = async () => {
    const client = await db
      .selectFrom('api_clients')
      .select('id')
      .where('company_id', '=', company.companyId)
      .executeTakeFirstOrThrow();
    return Number((await redis.get(`finance:rl:client:${client.id}`)) ?? 0);
  };

  it('when Redis is cut, then every request still answers 200, /ready names redis, and the process lives', async () => {
    expect(await reads(company, 5)).toEqual(Array(5).fill(200));
    await proxy.cut();
    expect(await reads(company, 20)).toEqual(Array(20).fill(200));
    expect(await eventually(async () => (await status(server, '/ready')) === 503, 20)).toBe(true);
    const ready = await fetch(`${server.baseUrl}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ down: ['redis'] });
    expect(server.child.exitCode).toBeNull();
    expect(await eventually(async () => /rate-limit store failed/.test(server.stdout()))).toBe(true);
  });

  it('when Redis accepts connections but never answers, then requests still answer 200', async () => {
    await proxy.restore();
    expect(await eventually(async () => (await status(server, '/ready')) === 200)).toBe(true);
    proxy.block();
    expect(await reads(company, 10)).toEqual(Array(10).fill(200));
    expect(server.child.exitCode).toBeNull();
  });

  it('when Redis returns, then counts go to Redis again and the fallback is counted in /metrics', async () => {
    await proxy.restore();
    expect(await eventually(async () => (await status(server, '/ready')) === 200)).toBe(true);
    const start = await redisHits();
    // After a failure the fallback counts for a few seconds; then counts return to Redis.
    expect(
      await eventually(async () => {
        await reads(company, 1);
        return (await redisHits()) > start;
      }),
    ).toBe(true);
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    const fallbacks = Number(/^finance_rate_limit_store_fallbacks_total (\d+)/m.exec(metrics)?.[1]);
    expect(fallbacks).toBeGreaterThanOrEqual(30);
    expect(server.child.exitCode).toBeNull();
  });

  it('when Redis is unreachable from the start, then the first requests answer 200 and the process lives', async () => {
    const closed = await startTcpProxy(6379);
    await closed.cut();
    const { server: lonely, company: alone } = await serverOn((location) => location, {
      REDIS_URL: `redis://127.0.0.1:${closed.port}`,
      RATE_LIMIT_PER_MINUTE: '10000',
    });
    expect(await reads(alone, 10)).toEqual(Array(10).fill(200));
    expect(lonely.child.exitCode).toBeNull();
  });
});
