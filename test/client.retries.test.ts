// createFinanceClient retries: network failures, 503 and 429 (honouring Retry-After) for idempotent
// and explicitly safe operations only, bounded by count and time, abortable. Faults are injected
// in the transport; everything else is the real server.
import type { ClientRateLimitInfo, Store } from 'express-rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFinanceClient, isRetryable, unwrap, type RetryOptions } from '../client/index.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { customRequest, fundedCompany } from './support/factories/vcn.js';
import { createAccount } from './support/factories/statements.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await fundedCompany(server);
});
afterAll(async () => server.close());

const FAST: RetryOptions = { baseDelayMs: 1, maxDelayMs: 2000 };

const unavailable = (request: Request, headers: Record<string, string> = {}, status = 503) =>
  new Response(
    JSON.stringify({
      error: 'Service Unavailable',
      message: 'Try again later',
      code: status,
      requestId: request.headers.get('X-Request-Id'),
      details: [],
    }),
    { status, headers: { 'Content-Type': 'application/json', ...headers } },
  );

type Fault = (request: Request, attempt: number) => Response | Error | 'lose-response' | undefined;

/** A client whose transport lets `fault` answer (or fail) attempts of `path` before the real server does. */
function faulty(path: string, fault: Fault, retry: RetryOptions = FAST, company = acme) {
  const attempts: Array<{ at: number; method: string; requestId: string | null; headers: Headers }> = [];
  const fetch = async (request: Request) => {
    if (new URL(request.url).pathname !== path) return globalThis.fetch(request);
    attempts.push({
      at: Date.now(),
      method: request.method,
      requestId: request.headers.get('X-Request-Id'),
      headers: new Headers(request.headers),
    });
    const injected = fault(request, attempts.length);
    if (injected instanceof Response) return injected;
    if (injected instanceof Error) throw injected;
    const response = await globalThis.fetch(request);
    if (injected === 'lose-response') throw new TypeError('fetch failed: connection reset');
    return response;
  };
  const client = createFinanceClient({
    baseUrl: server.baseUrl,
    clientId: company.clientId,
    clientSecret: company.clientSecret,
    fetch,
    retry,
  });
  return { client, attempts };
}

const COST_CENTERS = '/cost-centers/v1/cost-centers';
const VCNS = '/credit-cards/v1/vcns';
const costCenterNames = async () => ((await acme.api.GET(COST_CENTERS)).data?.items ?? []).map((c) => c.name);

describe('createFinanceClient: retries of idempotent calls', () => {
  it('when a GET gets two 503s, then it is retried and succeeds on the third attempt, every attempt with the same request id', async () => {
    const { client, attempts } = faulty(COST_CENTERS, (req, n) => (n <= 2 ? unavailable(req) : undefined));
    const { response } = await client.GET(COST_CENTERS);
    expect(response.status).toBe(200);
    expect(attempts.length).toBe(3);
    expect(new Set(attempts.map((a) => a.requestId))).toEqual(new Set([response.headers.get('X-Request-Id')]));
  });

  it('when a GET fails on the network, then it is retried', async () => {
    const { client, attempts } = faulty(COST_CENTERS, (_req, n) =>
      n === 1 ? new TypeError('fetch failed') : undefined,
    );
    expect((await client.GET(COST_CENTERS)).response.status).toBe(200);
    expect(attempts.length).toBe(2);
  });

  it('when a 429 says Retry-After: 1, then the retry waits at least one second', async () => {
    const { client, attempts } = faulty(COST_CENTERS, (req, n) =>
      n === 1 ? unavailable(req, { 'Retry-After': '1' }, 429) : undefined,
    );
    expect((await client.GET(COST_CENTERS)).response.status).toBe(200);
    expect(attempts.length).toBe(2);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('when Retry-After asks for longer than maxDelayMs, then the 429 is returned without waiting', async () => {
    const { client, attempts } = faulty(COST_CENTERS, (req) => unavailable(req, { 'Retry-After': '60' }, 429));
    const started = Date.now();
    const error = await unwrap(client.GET(COST_CENTERS)).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: 429 });
    expect(attempts.length).toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("when the server's rate limiter answers 429 with Retry-After beyond maxDelayMs, then the 429 reaches the caller", async () => {
    const limited = await startTestServer({ config: { rateLimitPerMinute: 2 } });
    try {
      const company = await limited.newCompany();
      const client = createFinanceClient({
        baseUrl: limited.baseUrl,
        clientId: company.clientId,
        clientSecret: company.clientSecret,
        retry: FAST,
      });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await client.GET(COST_CENTERS)).response.status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  it('when every attempt gets 503, then it stops after maxRetries retries and returns the 503', async () => {
    const { client, attempts } = faulty(COST_CENTERS, (req) => unavailable(req), { ...FAST, maxRetries: 2 });
    expect((await client.GET(COST_CENTERS)).response.status).toBe(503);
    expect(attempts.length).toBe(3);
  });

  it('when the next wait would pass maxElapsedMs, then it stops there', async () => {
    const { client, attempts } = faulty(COST_CENTERS, (req) => unavailable(req, { 'Retry-After': '1' }), {
      ...FAST,
      maxElapsedMs: 500,
    });
    expect((await client.GET(COST_CENTERS)).response.status).toBe(503);
    expect(attempts.length).toBe(1);
  });

  it('when the call is aborted during a backoff, then it rejects at once with the abort reason and sends nothing more', async () => {
    const controller = new AbortController();
    let started = 0;
    const { client, attempts } = faulty(COST_CENTERS, (req) => {
      started = Date.now();
      setTimeout(() => controller.abort(), 50);
      return unavailable(req, { 'Retry-After': '1' });
    });
    const error = await client.GET(COST_CENTERS, { signal: controller.signal }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(900);
    expect(attempts.length).toBe(1);
  });

  it('when the client-wide signal aborts, then calls in flight and later calls reject', async () => {
    const controller = new AbortController();
    const fetch = (request: Request) =>
      new Promise<Response>((_resolve, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
      });
    const client = createFinanceClient({
      baseUrl: server.baseUrl,
      clientId: acme.clientId,
      clientSecret: acme.clientSecret,
      fetch,
      signal: controller.signal,
    });
    const pending = client.GET(COST_CENTERS).catch((e: unknown) => e);
    controller.abort();
    expect(((await pending) as Error).name).toBe('AbortError');
    expect(((await client.GET(COST_CENTERS).catch((e: unknown) => e)) as Error).name).toBe('AbortError');
  });

  it('when the token endpoint answers 503 once, then the token request is retried', async () => {
    const { client, attempts } = faulty('/oauth/token', (req, n) => (n === 1 ? unavailable(req) : undefined));
    expect((await client.GET(COST_CENTERS)).response.status).toBe(200);
    expect(attempts.map((a) => a.method)).toEqual(['POST', 'POST']);
  });
});

describe('createFinanceClient: non-idempotent calls', () => {
  it('when POST createCostCenter gets a 503, then it is retried with the same Idempotency-Key and created once', async () => {
    const { client, attempts } = faulty(COST_CENTERS, (req, n) =>
      req.method === 'POST' && n === 1 ? unavailable(req) : undefined,
    );
    expect((await unwrap(client.POST(COST_CENTERS, { body: { name: 'Retried safely' } }))).name).toBe('Retried safely');
    expect(attempts.length).toBe(2);
    const keys = attempts.map((a) => a.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect((await costCenterNames()).filter((n) => n === 'Retried safely')).toHaveLength(1);
  });

  it('when POST createCostCenter gets a 429, then it is retried: the rate limiter refused it before anything ran', async () => {
    const { client, attempts } = faulty(COST_CENTERS, (req, n) =>
      n === 1 ? unavailable(req, { 'Retry-After': '0' }, 429) : undefined,
    );
    expect((await unwrap(client.POST(COST_CENTERS, { body: { name: 'After a 429' } }))).name).toBe('After a 429');
    expect(attempts.length).toBe(2);
    expect((await costCenterNames()).filter((n) => n === 'After a 429')).toHaveLength(1);
  });

  it('when the answer of POST createCostCenter is lost, then the retry gets the first 201 replayed and the cost center exists once', async () => {
    const { client, attempts } = faulty(COST_CENTERS, (req, n) =>
      req.method === 'POST' && n === 1 ? 'lose-response' : undefined,
    );
    const { data, response } = await client.POST(COST_CENTERS, { body: { name: 'Lost answer' } });
    expect(response.status).toBe(201);
    expect(response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(data?.name).toBe('Lost answer');
    expect(attempts.length).toBe(2);
    expect((await costCenterNames()).filter((n) => n === 'Lost answer')).toHaveLength(1);
  });

  it('when a lost answer is retried while the first attempt still runs, then the 409 key-in-use is waited out and the batch is stored once', async () => {
    const path = '/sandbox/v1/banking-transactions';
    await createAccount(server.db, acme.companyId);
    const marker = `in-flight ${Date.now()}`;
    let first: Promise<Response> | undefined;
    const { client, attempts } = faulty(path, (req, n) => {
      if (n !== 1) return undefined;
      // The request reaches the server and runs; its answer never reaches the caller.
      first = globalThis.fetch(req.clone());
      return new TypeError('fetch failed: socket hang up');
    });
    const transactions = Array.from({ length: 500 }, (_, i) => ({ brlAmount: 1 + i, description: `${marker} ${i}` }));
    const { response } = await client.POST(path, { body: { transactions } });
    expect(response.status).toBe(201);
    expect((await first)?.status).toBe(201);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    const { n } = await server.db
      .selectFrom('banking_transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('description', 'like', `${marker} %`)
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(500);
  });

  it('when the caller sets its own Idempotency-Key, then it is sent as is on every attempt', async () => {
    const { client, attempts } = faulty(COST_CENTERS, (req, n) =>
      req.method === 'POST' && n === 1 ? unavailable(req) : undefined,
    );
    await unwrap(
      client.POST(COST_CENTERS, { body: { name: 'Own key' }, headers: { 'Idempotency-Key': 'order-4711' } }),
    );
    expect(attempts.map((a) => a.headers.get('Idempotency-Key'))).toEqual(['order-4711', 'order-4711']);
  });

  it('when POST createVcn gets a 503, then it is retried (the booking key makes it safe) and the card is issued', async () => {
    const { client, attempts } = faulty(VCNS, (req, n) => (n === 1 ? unavailable(req) : undefined));
    const card = await unwrap(client.POST(VCNS, { body: customRequest() }));
    expect(card.status).toBe('ACTIVE');
    expect(attempts.length).toBe(2);
  });

  it('when the answer of POST createVcn is lost, then the retry gets the first 201 replayed: the same card, no second one', async () => {
    const { client, attempts } = faulty(VCNS, (_req, n) => (n === 1 ? 'lose-response' : undefined));
    const { data, response } = await client.POST(VCNS, { body: customRequest() });
    expect(response.status).toBe(201);
    expect(response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(data?.status).toBe('ACTIVE');
    expect(attempts.length).toBe(2);
  });

  it.each([
    ['GET', '/statements/v1/banking', true],
    ['DELETE', '/cost-centers/v1/cost-centers/5c3e0b7e-0d6f-4f43-9a38-3d1f1e2b7a10', true],
    ['PUT', '/suppliers/v1/suppliers/7', true],
    ['POST', '/oauth/token', true],
    ['POST', '/credit-cards/v1/vcns', true],
    ['PATCH', '/credit-cards/v1/vcns/vcn_01JD3Q5W2K8Z9Y7X6V5T4S3R2Q', true],
    ['PATCH', '/statements/v1/banking/48213', true],
    ['PATCH', '/statements/v1/credit-card/01JD3Q5W2K8Z9Y7X6V5T4S3R2Q', true],
    ['POST', '/cost-centers/v1/cost-centers', false],
    ['POST', '/users/v1/invites', false],
    ['POST', '/attachments/v1', false],
    ['PATCH', '/users/v1/users/0b6f2c1e-8a4d-4c2b-9e7f-1a2b3c4d5e6f', false],
    ['POST', '/credit-cards/v1/vcns/vcn_1/transactions', false],
  ])('when %s %s fails, then retryable is %s', (method, path, expected) => {
    expect(isRetryable(method, path)).toBe(expected);
  });
});

/** A fixed window of `ms` for express-rate-limit, starting at the first hit: a limit that resets within a test. */
class ShortWindowStore implements Store {
  readonly localKeys = true;
  private readonly hits = new Map<string, number>();
  private resetTime: Date | undefined;

  constructor(private readonly ms: number) {}

  async increment(key: string): Promise<ClientRateLimitInfo> {
    if (!this.resetTime || Date.now() >= this.resetTime.getTime()) {
      this.hits.clear();
      this.resetTime = new Date(Date.now() + this.ms);
    }
    const totalHits = (this.hits.get(key) ?? 0) + 1;
    this.hits.set(key, totalHits);
    return { totalHits, resetTime: this.resetTime };
  }

  async decrement(key: string): Promise<void> {
    this.hits.set(key, Math.max(0, (this.hits.get(key) ?? 0) - 1));
  }

  async resetKey(key: string): Promise<void> {
    this.hits.delete(key);
  }
}

describe("createFinanceClient: the server's rate limit headers", () => {
  /** A client of a new company on `limited`, whose transport drops `Retry-After` from 429s when asked; its attempts of the cost center list. */
  async function clientOf(limited: TestServer, options: { dropRetryAfter: boolean }) {
    const company = await limited.newCompany();
    const attempts: Array<{ status: number; headers: Headers }> = [];
    const fetch = async (request: Request) => {
      const response = await globalThis.fetch(request);
      if (new URL(request.url).pathname !== COST_CENTERS) return response;
      attempts.push({ status: response.status, headers: new Headers(response.headers) });
      if (response.status !== 429 || !options.dropRetryAfter) return response;
      const headers = new Headers(response.headers);
      headers.delete('Retry-After');
      return new Response(response.body, { status: response.status, headers });
    };
    const client = createFinanceClient({
      baseUrl: limited.baseUrl,
      clientId: company.clientId,
      clientSecret: company.clientSecret,
      fetch,
      retry: FAST,
    });
    return { client, attempts };
  }

  for (const dropRetryAfter of [false, true]) {
    const asked = dropRetryAfter ? 'RateLimit t alone (no Retry-After)' : 'Retry-After';
    it(`when the limiter's window resets in 2 s and the 429 says so in ${asked}, then the client waits for it and the retry succeeds`, async () => {
      const limited = await startTestServer({
        config: { rateLimitPerMinute: 2 },
        rateLimitStore: new ShortWindowStore(2000),
      });
      try {
        const { client, attempts } = await clientOf(limited, { dropRetryAfter });
        const statuses = [];
        for (let i = 0; i < 3; i++) statuses.push((await client.GET(COST_CENTERS)).response.status);
        expect(statuses).toEqual([200, 200, 200]);
        expect(attempts.map((a) => a.status)).toEqual([200, 200, 429, 200]);
        const refused = attempts[2]!;
        expect(refused.headers.get('RateLimit')).toMatch(/^"default"; r=0; t=[12]$/);
        expect(refused.headers.get('Retry-After')).toMatch(/^[12]$/);
      } finally {
        await limited.close();
      }
    });
  }

  it("when a 429 has no Retry-After but RateLimit's t is beyond maxDelayMs, then the 429 is returned after one attempt", async () => {
    const limited = await startTestServer({ config: { rateLimitPerMinute: 2 } });
    try {
      const { client, attempts } = await clientOf(limited, { dropRetryAfter: true });
      await client.GET(COST_CENTERS);
      await client.GET(COST_CENTERS);
      const { response } = await client.GET(COST_CENTERS);
      expect(response.status).toBe(429);
      expect(response.headers.get('Retry-After')).toBeNull();
      expect(response.headers.get('RateLimit')).toMatch(/^"default"; r=0; t=\d+$/);
      expect(attempts.map((a) => a.status)).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
