// Rotating the server secrets breaks nothing in flight: a server given the previous value
// (CURSOR_SECRET_PREVIOUS, URL_SIGNING_SECRET_PREVIOUS) still accepts everything the old one signed —
// list page keys, both change feeds' cursors, receipt and upload URLs, the consent form — and once
// the previous value is dropped, a change feed asks for a restart (410) rather than calling the
// cursor malformed. Stored card numbers and Idempotency-Key answers open with the previous key too.
// And a failing dependency is logged when it fails, at most every few seconds, and when it recovers.
import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { startTestServer, type TestServer } from './support/server.js';
import { createCategory } from './support/factories/directory.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';
import {
  approvalCodeFromCli,
  authorizeUrl,
  decide,
  discover,
  openConsent,
  registerPublicApp,
} from './support/oauth-flow.js';
import { freshDatabase, migratedDatabase } from './support/database.js';
import { testConfig } from '../server/config.js';
import { ManualClock } from '../server/lib/clock.js';
import { failureLog } from '../server/lib/failure-log.js';
import { reencryptPans } from '../server/areas/vcn/store/reencrypt.js';
import { fundedCompany, hotelRequest, issue } from './support/factories/vcn.js';
import type { Config } from '../server/config.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** The app on the database at `dbPath`, as a restart with these secrets starts it. */
const withKeys = async (dbPath: string, keys: Partial<Config['secrets']>, clock?: ManualClock) => {
  const server = await startTestServer({ dbPath, clock, config: { secrets: { ...testConfig().secrets, ...keys } } });
  servers.push(server);
  return server;
};

const BANKING_SYNC = '/statements/v1/banking/sync';
const CARD_SYNC = '/statements/v1/credit-card/sync';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('server secret rotation', () => {
  it('when CURSOR_SECRET and URL_SIGNING_SECRET are rotated with the previous values, then everything signed before still works; without them, a feed cursor gets 410 sync_restart_required', async () => {
    const dbPath = await migratedDatabase();
    const clock = new ManualClock();
    const old = { cursor: randomBytes(32), urls: randomBytes(32) };
    const rotated = { cursor: randomBytes(32), urls: randomBytes(32) };

    // Everything the service signs, issued under the old secrets.
    const before = await withKeys(dbPath, old, clock);
    const company = await before.newCompany();
    for (let i = 0; i < 3; i += 1) await createCategory(before.db, company.companyId);
    const account = await createAccount(before.db, company.companyId);
    const [bankingId] = await createBankingTransactions(before.db, company.companyId, account, [{}, {}]);
    await createCreditCardTransactions(before.db, company.companyId, [{}, {}]);
    const pageKey = (await company.api.GET('/categories/v1/categories', { params: { query: { limit: 2 } } })).data
      ?.nextPageStartKey;
    const cursors = {
      [BANKING_SYNC]: (await company.api.GET(BANKING_SYNC, { params: { query: { limit: 1 } } })).data?.nextCursor,
      [CARD_SYNC]: (await company.api.GET(CARD_SYNC, { params: { query: { limit: 1 } } })).data?.nextCursor,
    };
    const receipt = await company.api.GET('/statements/v1/banking/{transactionId}/receipt', {
      params: { path: { transactionId: bankingId! } },
    });
    const upload = await company.api.POST('/attachments/v1', {
      body: { transactionId: String(bankingId), statement: 'banking', name: 'nota.pdf', type: 'application/pdf' },
    });
    const as = await discover(before);
    const consent = await openConsent((await authorizeUrl(as, await registerPublicApp(as))).url);
    expect([pageKey, cursors[BANKING_SYNC], cursors[CARD_SYNC], consent.fields.csrf]).not.toContain(undefined);
    // The signed URLs name the server that issued them; the token is what is signed.
    const pathOf = (url: string | undefined) => new URL(url!).pathname;
    const [receiptPath, uploadPath] = [pathOf(receipt.data?.url), pathOf(upload.data?.uploadUrl)];

    const pageAfter = (server: TestServer) =>
      server
        .apiWithToken(company.token)
        .GET('/categories/v1/categories', { params: { query: { limit: 2, nextPageStartKey: pageKey } } });
    const feedAfter = (server: TestServer, path: typeof BANKING_SYNC | typeof CARD_SYNC) =>
      server.apiWithToken(company.token).GET(path, { params: { query: { cursor: cursors[path] } } });
    const uploadTo = (server: TestServer) =>
      fetch(`${server.baseUrl}${uploadPath}`, {
        method: 'PUT',
        body: new Uint8Array(PDF),
        headers: { 'Content-Type': 'application/pdf' },
      });

    // New secrets, the old ones as previous: each still works.
    const during = await withKeys(dbPath, { ...rotated, cursorPrevious: old.cursor, urlsPrevious: old.urls }, clock);
    const page = await pageAfter(during);
    expect(page.response.status).toBe(200);
    expect(page.data?.items).toHaveLength(1);
    for (const path of [BANKING_SYNC, CARD_SYNC] as const) {
      const feed = await feedAfter(during, path);
      expect(feed.response.status, path).toBe(200);
      expect(feed.data?.added, path).toHaveLength(1);
    }
    const pdf = await fetch(`${during.baseUrl}${receiptPath}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await uploadTo(during)).status).toBe(200);
    const approved = await decide(
      during.baseUrl,
      consent,
      'approve',
      await approvalCodeFromCli(during, company.companyId),
    );
    expect(approved.status).toBe(302);
    expect(new URL(approved.headers.get('location')!).searchParams.get('code')).toBeTruthy();

    // The rotation over (the previous secrets dropped): what the old secrets signed no longer opens.
    const after = await withKeys(dbPath, rotated, clock);
    for (const path of [BANKING_SYNC, CARD_SYNC] as const) {
      const { error, response } = await feedAfter(after, path);
      expect(response.status, path).toBe(410);
      expect(error, path).toMatchObject({ code: 410, reason: 'sync_restart_required', param: 'cursor' });
    }
    expect((await pageAfter(after)).response.status).toBe(400);
    expect((await fetch(`${after.baseUrl}${receiptPath}`)).status).toBe(403);
    expect((await uploadTo(after)).status).toBe(403);
    expect((await decide(after.baseUrl, consent, 'deny')).status).toBe(403);
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
