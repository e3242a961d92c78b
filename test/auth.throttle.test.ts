// Failed client authentications are throttled per client id, in the database: 10 a minute, then
// 429 with Retry-After for that client id on every server sharing the database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../server/lib/clock.js';
import { startTestServer, type TestServer } from './support/server.js';

const dir = mkdtempSync(join(tmpdir(), 'finance-throttle-'));
const clock = new ManualClock();
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  const dbPath = join(dir, 'finance.sqlite');
  const config = { authFailuresPerMinute: 10 };
  a = await startTestServer({ dbPath, clock, config });
  b = await startTestServer({ dbPath, clock, config });
});
afterAll(async () => {
  await a.close();
  await b.close();
  rmSync(dir, { recursive: true, force: true });
});

const token = (server: TestServer, clientId: string, clientSecret: string) =>
  fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });

describe('createToken: failed authentications per client id', () => {
  it('when a client id fails 10 times in a minute, then the next attempt is 429 with Retry-After on any server, even with the right secret', async () => {
    clock.set('2026-11-20T15:00:00Z');
    const acme = await a.newCompany();
    const other = await a.newCompany();
    for (let i = 0; i < 10; i++) expect((await token(i % 2 ? a : b, acme.clientId, 'sk_wrong')).status).toBe(401);

    for (const server of [a, b]) {
      const res = await token(server, acme.clientId, acme.clientSecret);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('60');
      expect(await res.json()).toMatchObject({ code: 429, error: 'Too Many Requests', details: [] });
    }
    // Other clients are not affected.
    expect((await token(a, other.clientId, other.clientSecret)).status).toBe(200);

    clock.set('2026-11-20T15:00:45Z');
    expect((await token(a, acme.clientId, acme.clientSecret)).headers.get('retry-after')).toBe('15');
    clock.set('2026-11-20T15:01:00Z');
    expect((await token(b, acme.clientId, acme.clientSecret)).status).toBe(200);
  });

  it('when failures are spread over windows, then each window counts from zero', async () => {
    clock.set('2026-11-20T16:00:00Z');
    const acme = await a.newCompany();
    for (let i = 0; i < 9; i++) await token(a, acme.clientId, 'sk_wrong');
    clock.set('2026-11-20T16:01:00Z');
    for (let i = 0; i < 9; i++) await token(a, acme.clientId, 'sk_wrong');
    expect((await token(a, acme.clientId, acme.clientSecret)).status).toBe(200);
  });

  it('when a made-up client id is guessed, then it is throttled the same way', async () => {
    clock.set('2026-11-20T17:00:00Z');
    for (let i = 0; i < 10; i++) expect((await token(a, 'cli_000000000000000000000000', 'sk_x')).status).toBe(401);
    expect((await token(a, 'cli_000000000000000000000000', 'sk_x')).status).toBe(429);
  });
});
