// Rate limits counted once for every worker and replica: two app instances on one database (or one
// Redis) share a client's budget, so the limit holds however requests are spread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import { startTestServer, type TestServer } from './support/server.js';
import { freshDatabase } from './support/database.js';
import { DatabaseRateLimitStore } from '../server/http/ops/rate-limit-store.js';
import { apiFor } from './support/processes.js';
import { openStore } from '../server/db/store.js';
import { ManualClock } from '../server/lib/clock.js';

const LIMIT = 6;
let dir: string;
const servers: TestServer[] = [];
const closers: Array<() => Promise<void>> = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rate-limit-'));
});
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const close of closers) await close();
  rmSync(dir, { recursive: true, force: true });
});

/** 10 calls of one client alternating between the two servers; the statuses in order. */
async function spread(first: TestServer, second: TestServer): Promise<number[]> {
  const acme = await first.newCompany();
  const apis = [first, second].map((s) => apiFor(s.baseUrl, acme.token));
  const statuses: number[] = [];
  for (let i = 0; i < 10; i += 1)
    statuses.push((await apis[i % 2]!.GET('/cost-centers/v1/cost-centers')).response.status);
  return statuses;
}

describe('rate limits across instances', () => {
  it('when one client spreads its calls over two instances on one database, then the limit counts them all', async () => {
    const dbPath = await freshDatabase(dir);
    const counters = (await openStore(dbPath)).db;
    const clock = new ManualClock();
    const first = await startTestServer({
      dbPath,
      clock,
      config: { rateLimitPerMinute: LIMIT },
      rateLimitStore: new DatabaseRateLimitStore(counters, clock),
    });
    const second = await startTestServer({
      dbPath,
      clock,
      config: { rateLimitPerMinute: LIMIT },
      rateLimitStore: new DatabaseRateLimitStore(counters, clock),
    });
    servers.push(first, second);
    closers.push(() => counters.destroy());
    expect(await spread(first, second)).toEqual([...Array(LIMIT).fill(200), ...Array(10 - LIMIT).fill(429)]);
  });

  it('when the counters live in Redis, then two instances share them too', async () => {
    const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    const up = await client.connect().then(
      () => true,
      () => false,
    );
    if (!up && !process.env.CI) {
      client.disconnect();
      return; // No Redis on this machine; CI always has one.
    }
    expect(up).toBe(true);
    const prefix = `finance:test:${Date.now()}:${Math.random().toString(36).slice(2)}:`;
    const store = () =>
      new RedisStore({
        prefix,
        sendCommand: (command: string, ...args: string[]) => client.call(command, ...args) as Promise<never>,
      });
    const dbPath = await freshDatabase(dir, 'redis.sqlite');
    const first = await startTestServer({ dbPath, config: { rateLimitPerMinute: LIMIT }, rateLimitStore: store() });
    const second = await startTestServer({
      dbPath,
      clock: first.clock,
      config: { rateLimitPerMinute: LIMIT },
      rateLimitStore: store(),
    });
    servers.push(first, second);
    try {
      expect(await spread(first, second)).toEqual([...Array(LIMIT).fill(200), ...Array(10 - LIMIT).fill(429)]);
    } finally {
      await client.quit();
    }
  });
});
