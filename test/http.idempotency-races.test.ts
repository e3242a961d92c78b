// Idempotency-Key when clients give up and retry, and when the same request arrives twice at once:
// a keyed write is made once whatever happens to the connection that carried it. A client that
// leaves does not free the key: its write goes on, commits, and its answer is stored; the retry gets
// 409 with Retry-After while the first attempt runs, then that answer.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from './support/factories/statements.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;
beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  await createAccount(server.db, acme.companyId);
});
afterAll(async () => server.close());

const ROWS = 300;
const batch = (marker: string) => ({
  transactions: Array.from({ length: ROWS }, (_, i) => ({
    brlAmount: (1000 + i) / 100,
    description: `${marker} ${i}`,
  })),
});

const post = (key: string, body: unknown, signal?: AbortSignal) =>
  fetch(`${server.baseUrl}/sandbox/v1/banking-transactions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${acme.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
    signal,
  });

/** Retries the way a client library does: on 409 with Retry-After, waits and sends the same again. */
async function retryUntilAnswered(key: string, body: unknown): Promise<Response> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const res = await post(key, body);
    if (res.status !== 409) return res;
    const problem = (await res.json()) as { reason?: string };
    expect(problem.reason).toBe('idempotency_key_in_use');
    const seconds = Number(res.headers.get('Retry-After'));
    expect(seconds).toBeGreaterThanOrEqual(1);
    // Sooner than told: the test needs no more than to see the first attempt end.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the key stayed in use');
}

const stored = async (marker: string) => {
  const { n } = await server.db
    .selectFrom('banking_transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', acme.companyId)
    .where('description', 'like', `${marker} %`)
    .executeTakeFirstOrThrow();
  return Number(n);
};

describe('Idempotency-Key under retries and races', () => {
  it('when a batch is abandoned 2–40 ms after it was sent and retried with its key, then it is stored once and the retry answers 201', async () => {
    for (const abandonAfterMs of [2, 6, 10, 15, 20, 25, 30, 40]) {
      const marker = `abandoned-${abandonAfterMs}-${randomUUID()}`;
      const key = randomUUID();
      const body = batch(marker);
      const abandoned = new AbortController();
      const first = post(key, body, abandoned.signal).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, abandonAfterMs));
      abandoned.abort();
      await first;
      const retry = await retryUntilAnswered(key, body);
      expect(retry.status, `abandoned after ${abandonAfterMs} ms`).toBe(201);
      const created = (await retry.json()) as { transactions: unknown[] };
      expect(created.transactions).toHaveLength(ROWS);
      expect(await stored(marker), `abandoned after ${abandonAfterMs} ms`).toBe(ROWS);
    }
  });

  it('when two identical keyed requests arrive at once, then the batch is stored once and both end with the same 201', async () => {
    for (let round = 0; round < 4; round += 1) {
      const marker = `pair-${round}-${randomUUID()}`;
      const key = randomUUID();
      const body = batch(marker);
      const [a, b] = await Promise.all([retryUntilAnswered(key, body), retryUntilAnswered(key, body)]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(await a.json()).toEqual(await b.json());
      expect(await stored(marker)).toBe(ROWS);
    }
  });
});
