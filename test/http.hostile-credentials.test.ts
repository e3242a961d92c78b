// Fuzzed client ids at the token endpoint and fuzzed webhook URLs, on top of the spec-driven hostile
// inputs (http.hostile-inputs.test.ts). Client ids: any string, in the form or in HTTP Basic, is
// answered with an RFC 6749 error (or 429), never a 500, and the failure counters stay bounded.
// Webhook URLs: in production no spelling of a loopback, private or link-local address registers,
// and no resolver answer of one is connected to.
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { ManualClock } from '../server/lib/clock.js';
import { createLogger } from '../server/http/pipeline/logger.js';
import { createDeliveryWorker } from '../server/areas/webhooks/worker.js';
import type { Resolve } from '../server/areas/webhooks/url-policy.js';
import { createEndpoint } from '../server/areas/webhooks/store.js';

const SEED = 21;
let server: TestServer;
let acme: TestCompany;
beforeAll(async () => {
  server = await startTestServer({
    clock: new ManualClock(new Date()),
    deliveries: 'manual',
    config: { webhooksAllowPrivate: false, authFailuresPerMinute: 10, authSourceFailuresPerMinute: 1_000 },
  });
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const hostileString = fc.oneof(
  fc.string({ maxLength: 64 }),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: 'grapheme', minLength: 200, maxLength: 2_000 }),
  fc.constantFrom(
    "cli_' or '1'='1",
    'cli_%00',
    'cli_\u0000x',
    ':',
    '::',
    'source 127.0.0.1',
    'client cli_x from 127.0.0.1',
    '\u202e',
    '🙂'.repeat(300),
  ),
);

describe('createToken with fuzzed client ids', () => {
  it('when any client id is sent in the form or in HTTP Basic, then the answer is an RFC 6749 error or 429, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(hostileString, fc.boolean(), async (clientId, basic) => {
        const res = await fetch(`${server.baseUrl}/oauth/token`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            ...(basic
              ? { Authorization: `Basic ${Buffer.from(`${clientId.replace(/:/g, '')}:sk_wrong`).toString('base64')}` }
              : {}),
          },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            ...(basic ? {} : { client_id: clientId, client_secret: 'sk_wrong' }),
          }),
        });
        const body = (await res.json()) as { error?: unknown; code?: unknown };
        expect([400, 401, 429]).toContain(res.status);
        if (res.status === 429) expect(body).toMatchObject({ code: 429 });
        else expect(['invalid_request', 'invalid_client']).toContain(body.error);
      }),
      { seed: SEED, numRuns: 150 },
    );
    // One source: one source counter and at most one per client id tried.
    const { n } = await server.db
      .selectFrom('auth_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBeLessThanOrEqual(151);
  }, 120_000);
});

/** Spellings the WHATWG URL parser turns into a non-public IPv4 or IPv6 address (never a DNS name). */
const nonPublicHost = fc.oneof(
  fc.constantFrom(
    '127.0.0.1',
    '127.1',
    '0x7f.0.0.1',
    '0x7f000001',
    '2130706433',
    '0177.0.0.1',
    '017700000001',
    '127.0.0.1.',
    '0',
    '0.0.0.0',
    '10.0.0.1',
    '192.168.1.1',
    '172.16.0.1',
    '169.254.169.254',
    '0xa9fea9fe',
    '100.64.0.1',
    '224.0.0.1',
    '[::1]',
    '[::]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::ffff:169.254.169.254]',
    '[fe80::1]',
    '[fc00::1]',
    '[fd12:3456::1]',
    '[ff02::1]',
  ),
  fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })).map(([a, b]) => `10.${a}.${b}.1`),
  fc.integer({ min: 0x7f000000, max: 0x7fffffff }).map(String),
);
const urlAround = (host: string) =>
  fc
    .tuple(
      fc.constantFrom('http', 'https', 'HTTP'),
      fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
      fc.webPath(),
    )
    .map(([scheme, port, path]) => `${scheme}://${host}${port ? `:${port}` : ''}${path}`);

describe('createWebhookEndpoint with fuzzed URLs (production policy)', () => {
  it('when the URL spells a loopback, private, link-local or otherwise non-public address in any form, then 400 and nothing is registered', async () => {
    await fc.assert(
      fc.asyncProperty(nonPublicHost.chain(urlAround), async (url) => {
        const { response, error } = await acme.api.POST('/webhooks/v1/endpoints', {
          body: { url, enabledEvents: ['*'] },
        });
        expect(response.status, url).toBe(400);
        expect(error).toMatchObject({ code: 400 });
      }),
      { seed: SEED, numRuns: 200 },
    );
    expect((await acme.api.GET('/webhooks/v1/endpoints')).data?.items).toEqual([]);
  }, 120_000);

  it('when the URL is any string, then the answer is 201 or 400, never a 500; a registered one names a public address', async () => {
    const anyUrl = fc.oneof(
      // Address hosts only (IPv4, its extended spellings, IPv6): no DNS lookup from the test.
      fc
        .webUrl({
          authoritySettings: { withIPv4: true, withIPv6: true, withIPv4Extended: true, withPort: true },
          withQueryParameters: true,
          withFragments: true,
        })
        .filter((u) => ipaddr.isValid(new URL(u).hostname.replace(/^\[|\]$/g, ''))),
      fc.string({ maxLength: 300 }),
      fc.constantFrom(
        'http://',
        'http://[',
        'http://%31%32%37.0.0.1/',
        'http://user@93.184.216.34/',
        'file:///etc/passwd',
      ),
    );
    let registered = 0;
    await fc.assert(
      fc.asyncProperty(anyUrl, async (url) => {
        const { response } = await acme.api.POST('/webhooks/v1/endpoints', { body: { url, enabledEvents: ['*'] } });
        expect([201, 400], url).toContain(response.status);
        if (response.status === 201) {
          registered += 1;
          const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
          expect(ipaddr.process(host).range(), url).toBe('unicast');
        }
      }),
      { seed: SEED, numRuns: 150 },
    );
    expect(registered).toBeGreaterThan(0);
  }, 120_000);
});

describe('webhook delivery with fuzzed resolver answers (production policy)', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => receiver.close());

  it('when a name answers any set of addresses with a non-public one among them, then nothing is sent', async () => {
    // Registered while the name still looked public; from then on it answers what the property gives.
    let answer: string[] = [];
    const resolve: Resolve = async () => answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const worker = createDeliveryWorker({
      db: server.db,
      clock: server.clock,
      logger: createLogger('silent'),
      allowPrivate: false,
      resolve,
    });
    const nonPublic = fc.constantFrom(
      '127.0.0.1',
      '10.1.2.3',
      '169.254.169.254',
      '::1',
      '::ffff:127.0.0.1',
      'fe80::1',
      '0.0.0.0',
      '192.168.0.10',
    );
    const publicAddress = fc.constantFrom('93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946');
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(fc.array(publicAddress, { maxLength: 2 }), fc.array(nonPublic, { minLength: 1, maxLength: 3 })),
          async ([good, bad]) => {
            const tenant = await server.newCompany();
            await createEndpoint(
              server.db,
              tenant.companyId,
              { url: `http://rebind.example.test:${new URL(receiver.url).port}/hooks`, enabledEvents: ['*'] },
              server.clock.now(),
            );
            answer = [...good, ...bad];
            await tenant.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Marketing' } });
            expect(await worker.tick()).toBe(1);
            expect(receiver.received).toEqual([]);
          },
        ),
        { seed: SEED, numRuns: 25 },
      );
    } finally {
      await worker.stop();
    }
  }, 120_000);
});
