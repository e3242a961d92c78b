// Rotating the server secrets that sign cursors and URLs breaks nothing in flight: a server given
// the previous value (CURSOR_SECRET_PREVIOUS, URL_SIGNING_SECRET_PREVIOUS) still accepts what it
// signed. And a failing dependency is logged when it fails, at most every few seconds, and when it recovers.
import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { startTestServer, type TestServer } from './support/server.js';
import { createCategory } from './support/factories/directory.js';
import { freshDatabase } from './support/database.js';
import { testConfig } from '../server/config.js';
import { failureLog } from '../server/lib/failure-log.js';
import { signExpiring, verifyExpiring } from '../server/lib/signed-token.js';
import { reencryptPans } from '../server/areas/vcn/store/reencrypt.js';
import { fundedCompany, hotelRequest, issue } from './support/factories/vcn.js';
import type { Config } from '../server/config.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const withKeys = async (dbPath: string, keys: Partial<Config['secrets']>) => {
  const server = await startTestServer({ dbPath, config: { secrets: { ...testConfig().secrets, ...keys } } });
  servers.push(server);
  return server;
};
const withCursorKeys = (dbPath: string, cursor: Buffer, cursorPrevious?: Buffer) =>
  withKeys(dbPath, { cursor, cursorPrevious });

describe('server secret rotation', () => {
  it('when CURSOR_SECRET is rotated with CURSOR_SECRET_PREVIOUS, then a cursor signed before is still accepted; without it, 400', async () => {
    const dbPath = await freshDatabase();
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const before = await withCursorKeys(dbPath, oldKey);
    const company = await before.newCompany();
    for (let i = 0; i < 5; i += 1) await createCategory(before.db, company.companyId);
    const first = await company.api.GET('/categories/v1/categories', { params: { query: { limit: 2 } } });
    const cursor = first.data?.nextPageStartKey;
    expect(cursor).toBeDefined();

    const during = await withCursorKeys(dbPath, newKey, oldKey);
    const next = await during
      .apiWithToken(company.token)
      .GET('/categories/v1/categories', { params: { query: { limit: 2, nextPageStartKey: cursor } } });
    expect(next.response.status).toBe(200);
    expect(next.data?.items[0]?.id).not.toBe(first.data?.items[0]?.id);

    const after = await withCursorKeys(dbPath, newKey);
    const refused = await after
      .apiWithToken(company.token)
      .GET('/categories/v1/categories', { params: { query: { limit: 2, nextPageStartKey: cursor } } });
    expect(refused.response.status).toBe(400);
  }, 60_000);

  it('when PAN_ENCRYPTION_KEY is rotated, then cards open with the previous key until `secrets reencrypt` re-seals them under the new one', async () => {
    const dbPath = await freshDatabase();
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const cvvKey = randomBytes(32);
    const before = await withKeys(dbPath, { panKey: oldKey, cvvKey });
    const company = await fundedCompany(before);
    const card = await issue(company, hotelRequest());
    const reveal = (server: TestServer) =>
      server
        .apiWithToken(company.token)
        .GET('/credit-cards/v1/vcns/{vcnId}/reveal', { params: { path: { vcnId: card.vcnId } } });
    const pan = (await reveal(before)).data?.pan;
    expect(pan).toMatch(/^[0-9]{16}$/);

    const during = await withKeys(dbPath, { panKey: newKey, panKeyPrevious: oldKey, cvvKey });
    expect((await reveal(during)).data?.pan).toBe(pan);
    expect(await reencryptPans(during.db, { panKey: newKey, panKeyPrevious: oldKey })).toMatchObject({
      reencrypted: 1,
    });
    expect(await reencryptPans(during.db, { panKey: newKey })).toMatchObject({ reencrypted: 0 });

    const after = await withKeys(dbPath, { panKey: newKey, cvvKey });
    expect((await reveal(after)).data?.pan).toBe(pan);
  }, 60_000);

  it('when IDEMPOTENCY_ENCRYPTION_KEY is rotated with the previous key given, then a stored response still replays', async () => {
    const dbPath = await freshDatabase();
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const before = await withKeys(dbPath, { idempotencyKey: oldKey });
    const company = await before.newCompany();
    const post = (server: TestServer) =>
      fetch(`${server.baseUrl}/cost-centers/v1/cost-centers`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${company.token}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': 'rotation-0001',
        },
        body: JSON.stringify({ name: 'Marketing' }),
      });
    const first = await post(before);
    expect(first.status).toBe(201);
    const during = await withKeys(dbPath, { idempotencyKey: newKey, idempotencyKeyPrevious: oldKey });
    const replayed = await post(during);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await replayed.json()).toEqual(await first.json());
  }, 60_000);

  it('when URL_SIGNING_SECRET is rotated, then a URL signed with the previous one verifies against [new, previous] only', () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const now = new Date('2026-05-01T12:00:00Z');
    const token = signExpiring(oldKey, 'receipt', { t: 'tx1' }, new Date(now.getTime() + 60_000));
    expect(verifyExpiring([newKey, oldKey], 'receipt', token, now)).toMatchObject({ claims: { t: 'tx1' } });
    expect(verifyExpiring([newKey, undefined], 'receipt', token, now)).toEqual({ refused: 'invalid' });
  });
});

describe('a failing dependency in the logs', () => {
  it('when it fails on every poll, then it is logged when it fails, once per interval, and when it recovers', () => {
    const lines: Array<{ msg: string; failuresSinceLastLine?: number; err?: { stack?: string } }> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    let now = 0;
    const log = failureLog(pino({ level: 'info' }, sink), 'webhook worker round', { everyMs: 5000, now: () => now });
    for (; now < 24_000; now += 250) log.failed(new Error('connection refused'));
    log.succeeded();
    log.succeeded();
    expect(lines.map((l) => l.msg)).toEqual([
      'webhook worker round failed',
      ...Array.from({ length: 4 }, () => 'webhook worker round still failing'),
      'webhook worker round recovered',
    ]);
    expect(lines[0]?.err?.stack).toContain('connection refused');
    expect(lines[1]?.failuresSinceLastLine).toBe(20);
  });
});
