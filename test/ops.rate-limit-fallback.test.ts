// Rate limits while Redis cannot be reached (REDIS_URL at a port that refuses): with
// RATE_LIMIT_FALLBACK_REPLICAS a process counts in its memory against its share of the limit, so a
// replica cut off from Redis lets a client through no more than that share; unset, the processes that
// lost Redis count together in the database.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Db } from '../server/db/database.js';
import { openStore } from '../server/db/store.js';
import { systemClock } from '../server/lib/clock.js';
import { createCompany } from '../server/areas/auth/store.js';
import { rateLimitStore } from '../server/http/ops/rate-limit-store.js';
import { fallbackShare } from '../server/http/ops/rate-limit-fallback.js';
import { freshDatabase } from './support/database.js';
import { apiFor, sharedCompany, startServerProcess } from './support/processes.js';
import { startTestServer } from './support/server.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

const LIMIT = 6;
let dir: string;
let closed: TcpProxy;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rate-limit-fallback-'));
  closed = await startTcpProxy(6379);
  await closed.cut();
  cleanups.push(() => closed.close());
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** Statuses of `n` calls made one after another, each to the next of `apis`. */
async function calls(apis: ReturnType<typeof apiFor>[], n: number) {
  const answers = [];
  for (let i = 0; i < n; i += 1)
    answers.push((await apis[i % apis.length]!.GET('/cost-centers/v1/cost-centers')).response);
  return answers;
}

describe('rate limits without Redis', () => {
  it('when RATE_LIMIT_FALLBACK_REPLICAS is 2 and Redis refuses, then one replica lets a client through its share (limit / 2), then 429 with Retry-After', async () => {
    const location = await freshDatabase(dir, 'share.sqlite');
    const db: Db = (await openStore(location)).db;
    cleanups.push(() => db.destroy());
    await createCompany(db, systemClock, { name: 'Bootstrap Ltda' });
    const server = await startServerProcess(location, {
      env: {
        REDIS_URL: `redis://127.0.0.1:${closed.port}`,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        RATE_LIMIT_FALLBACK_REPLICAS: '2',
        LOG_LEVEL: 'warn',
      },
    });
    cleanups.push(() => server.stop());
    // The token request counts against its address, not against the client.
    const company = await sharedCompany(db, [server]);
    const answers = await calls(company.apis, 5);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    expect(Number(answers[3]!.headers.get('Retry-After'))).toBeGreaterThan(0);
    // The log line is written asynchronously: it may reach this process a moment after the answers.
    await vi.waitFor(
      () => expect(server.stdout()).toContain('counting in the memory of this process (its share: 3 of 6 a minute)'),
      { timeout: 5_000, interval: 50 },
    );
  });

  it('when the setting is unset and Redis refuses, then the processes that lost Redis count together in the database', async () => {
    const dbPath = await freshDatabase(dir, 'database.sqlite');
    const options = { rateLimitPerMinute: LIMIT };
    const servers = [];
    for (let i = 0; i < 2; i += 1) {
      const counters = await openStore(dbPath);
      cleanups.push(() => counters.close());
      const limits = await rateLimitStore({
        db: counters.db,
        clock: systemClock,
        shared: true,
        redisUrl: `redis://127.0.0.1:${closed.port}`,
        logger: pino({ level: 'silent' }),
      });
      cleanups.push(() => limits.close());
      const server = await startTestServer({ dbPath, config: options, rateLimitStore: limits.store });
      cleanups.push(() => server.close());
      servers.push(server);
    }
    const acme = await servers[0]!.newCompany();
    const apis = servers.map((s) => apiFor(s.baseUrl, acme.token));
    expect((await calls(apis, 10)).map((r) => r.status)).toEqual([
      ...Array(LIMIT).fill(200),
      ...Array(10 - LIMIT).fill(429),
    ]);
  });

  it('when replicas run several workers, then each process counts the limit divided by replicas × workers, at least 1', () => {
    expect(fallbackShare(600, 3, 1)).toEqual({ perMinute: 600, share: 200 });
    expect(fallbackShare(600, 3, 2)).toEqual({ perMinute: 600, share: 100 });
    expect(fallbackShare(6, 10, 1)?.share).toBe(1);
    expect(fallbackShare(600, undefined, 2)).toBeUndefined();
    expect(fallbackShare(0, 3, 1)).toBeUndefined();
  });
});
