// Failed client authentications are throttled per source address and per client id from that
// address, in the database (every server sharing it agrees): knowing a client id is not enough to
// lock its owner out, and the owner's right secret clears its count from its address. TRUST_PROXY
// decides which address is the source.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../server/lib/clock.js';
import { loadConfig } from '../server/config.js';
import { freshDatabase } from './support/database.js';
import { startTestServer, type TestServer } from './support/server.js';

const dir = mkdtempSync(join(tmpdir(), 'finance-throttle-'));
const clock = new ManualClock();
let a: TestServer;
let b: TestServer;
let direct: TestServer;

beforeAll(async () => {
  const location = await freshDatabase(dir);
  // Behind a proxy on loopback: X-Forwarded-For names the source. Limits are the defaults.
  const config = { authFailuresPerMinute: 10, authSourceFailuresPerMinute: 30, trustProxy: ['loopback'] };
  a = await startTestServer({ dbPath: location, clock, config });
  b = await startTestServer({ dbPath: location, clock, config });
  // No proxy trusted: the source is the TCP peer, whatever X-Forwarded-For says. Lower limits.
  direct = await startTestServer({ clock, config: { authFailuresPerMinute: 3, authSourceFailuresPerMinute: 5 } });
});
afterAll(async () => {
  await a.close();
  await b.close();
  await direct.close();
  rmSync(dir, { recursive: true, force: true });
});

const token = (server: TestServer, clientId: string, clientSecret: string, from?: string) =>
  fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(from ? { 'X-Forwarded-For': from } : {}),
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });

const from = (address: string) => new Agent({ localAddress: address });
const tokenFrom = (agent: Agent, clientId: string, secret: string) =>
  undiciFetch(`${direct.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
    dispatcher: agent,
  });

const randomId = () => `cli_${randomBytes(12).toString('hex')}`;

describe('createToken: failed authentications per source', () => {
  it('when 20 wrong secrets for a client id come from one address, then the right secret from another address gets a token on any server', async () => {
    clock.set('2026-11-20T15:00:00Z');
    const acme = await a.newCompany();
    for (let i = 0; i < 20; i++) {
      const res = await token(i % 2 ? a : b, acme.clientId, 'sk_wrong', '198.51.100.2');
      expect(res.status).toBe(i < 10 ? 401 : 429);
    }
    for (const server of [a, b])
      expect((await token(server, acme.clientId, acme.clientSecret, '198.51.100.3')).status).toBe(200);
    // From the guessing address that client id stays refused, the right secret included, until the window ends.
    const refused = await token(a, acme.clientId, acme.clientSecret, '198.51.100.2');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.json()).toMatchObject({ code: 429, error: 'Too Many Requests', details: [] });
    clock.set('2026-11-20T15:00:45Z');
    expect((await token(b, acme.clientId, acme.clientSecret, '198.51.100.2')).headers.get('retry-after')).toBe('15');
    clock.set('2026-11-20T15:01:00Z');
    expect((await token(b, acme.clientId, acme.clientSecret, '198.51.100.2')).status).toBe(200);
  }, 60_000);

  it('when a client id fails 9 times from one address, then the right secret from it gets a token and clears its count there; 10 failures in a row refuse the 11th attempt', async () => {
    clock.set('2026-11-20T15:10:00Z');
    const acme = await a.newCompany();
    const wrong = () => token(a, acme.clientId, 'sk_wrong', '198.51.100.4');
    const right = () => token(a, acme.clientId, acme.clientSecret, '198.51.100.4');
    for (let i = 0; i < 9; i++) expect((await wrong()).status).toBe(401);
    expect((await right()).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await wrong()).status).toBe(401);
    expect((await right()).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await wrong()).status).toBe(401);
    expect((await right()).status).toBe(429);
  });

  it('when one address sprays wrong secrets across client ids, then after 30 failures every client id is 429 from it, and nowhere else', async () => {
    clock.set('2026-11-20T15:20:00Z');
    const acme = await a.newCompany();
    for (let i = 0; i < 30; i++) expect((await token(a, randomId(), 'sk_x', '198.51.100.5')).status).toBe(401);
    const refused = await token(b, randomId(), 'sk_x', '198.51.100.5');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(/from this address/);
    expect((await token(a, acme.clientId, acme.clientSecret, '198.51.100.5')).status).toBe(429);
    expect((await token(a, acme.clientId, acme.clientSecret, '198.51.100.6')).status).toBe(200);
    // IPv6 sources count by /56: another address of the same prefix is the same source.
    for (let i = 0; i < 30; i++) await token(a, randomId(), 'sk_x', '2001:db8:1:1::1');
    expect((await token(a, acme.clientId, acme.clientSecret, '2001:db8:1:2::9')).status).toBe(429);
    expect((await token(a, acme.clientId, acme.clientSecret, '2001:db8:2::9')).status).toBe(200);
  }, 90_000);

  it('when failures are spread over windows, then each window counts from zero', async () => {
    clock.set('2026-11-20T16:00:00Z');
    const acme = await a.newCompany();
    for (let i = 0; i < 9; i++) await token(a, acme.clientId, 'sk_wrong', '198.51.100.7');
    clock.set('2026-11-20T16:01:00Z');
    for (let i = 0; i < 9; i++) await token(a, acme.clientId, 'sk_wrong', '198.51.100.7');
    expect((await token(a, acme.clientId, acme.clientSecret, '198.51.100.7')).status).toBe(200);
  });
});

describe('createToken: the source address', () => {
  it('when no proxy is trusted, then X-Forwarded-For does not change the source', async () => {
    clock.set('2026-11-20T18:00:00Z');
    const acme = await direct.newCompany();
    for (let i = 0; i < 10; i++) await token(direct, acme.clientId, 'sk_wrong', `198.51.100.${i + 10}`);
    expect((await token(direct, acme.clientId, acme.clientSecret, '198.51.100.99')).status).toBe(429);
  });

  it('when the owner connects from another peer address, then the guesses of 127.0.0.2 do not refuse it', async () => {
    clock.set('2026-11-20T18:10:00Z');
    const acme = await direct.newCompany();
    const guesser = from('127.0.0.2');
    const owner = from('127.0.0.3');
    const send = (agent: Agent, secret: string) => tokenFrom(agent, acme.clientId, secret);
    for (let i = 0; i < 20; i++) await send(guesser, 'sk_wrong');
    expect((await send(guesser, acme.clientSecret)).status).toBe(429);
    expect((await send(owner, acme.clientSecret)).status).toBe(200);
    await guesser.close();
    await owner.close();
  });

  it('when 600 random client ids are tried from 10 peer addresses, then the counters hold at most 6 rows per address, and none once the minute is over', async () => {
    clock.set('2026-11-20T18:20:00Z');
    const agents = Array.from({ length: 10 }, (_, i) => from(`127.0.1.${i + 1}`));
    const statuses = new Map<number, number>();
    // Each address sends in turn (its counter is read before its next attempt); the addresses in parallel.
    await Promise.all(
      agents.map(async (agent) => {
        for (let i = 0; i < 60; i++) {
          const { status } = await tokenFrom(agent, randomId(), 'sk_x');
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    // Five failures per address are counted; every later attempt is refused without being counted.
    expect(Object.fromEntries(statuses)).toEqual({ 401: 10 * 5, 429: 10 * 55 });
    const count = async () =>
      Number(
        (
          await direct.db
            .selectFrom('auth_failures')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBeLessThanOrEqual(10 * 6);
    clock.set('2026-11-20T18:21:00Z');
    await tokenFrom(agents[0]!, randomId(), 'sk_x');
    expect(await count()).toBe(2);
    await Promise.all(agents.map((agent) => agent.close()));
  }, 300_000);

  it('when TRUST_PROXY is given, then it is read as Express reads `trust proxy`, and a bad entry stops the start', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal' })).toThrow(/TRUST_PROXY: proxy.internal/);
  });
});
