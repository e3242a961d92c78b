// Every status the server can answer is declared by the operation that answers it. The rules are
// generic (what an operation takes ⇒ what it can answer), so an operation added later is covered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '../server/contract/index.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

const operations = contract().operations;

/** What each kind of operation can answer, besides its own statuses. */
const rules: Array<{ when: string; applies: (op: (typeof operations)[number]) => boolean; statuses: number[] }> = [
  {
    when: 'every operation (overload shedding, rate limit, outage, failure)',
    applies: () => true,
    statuses: [429, 500, 503],
  },
  {
    when: 'it takes Idempotency-Key (a request still running, a key reused)',
    applies: (op) => (op.paramNames.header ?? []).includes('Idempotency-Key'),
    statuses: [409, 422],
  },
  {
    when: 'it has a JSON request body (too large, another media type)',
    applies: (op) => op.mediaTypes.includes('application/json'),
    statuses: [400, 413, 415],
  },
  { when: 'it has a request body (another media type)', applies: (op) => op.mediaTypes.length > 0, statuses: [415] },
  {
    when: 'it needs an access token (none or invalid, a missing scope)',
    applies: (op) => op.scopes !== undefined && op.operationId !== 'createAccessToken',
    statuses: [401, 403],
  },
];

describe('declared statuses', () => {
  for (const rule of rules) {
    it(`when ${rule.when}, then the operation declares ${rule.statuses.join(', ')}`, () => {
      const missing = operations
        .filter((op) => op.mediaTypes.includes('application/x-www-form-urlencoded') === false && rule.applies(op))
        .flatMap((op) =>
          rule.statuses.filter((s) => !op.errorBodies.has(s)).map((s) => `${op.method} ${op.path}: ${s}`),
        );
      expect(missing).toEqual([]);
    });
  }
});

describe('answers of statuses once undeclared', () => {
  let server: TestServer;
  let acme: TestCompany;
  beforeAll(async () => {
    server = await startTestServer();
    acme = await server.newCompany();
  });
  afterAll(async () => server.close());

  const sandboxWrites = [
    {
      path: '/sandbox/v1/clock/advance',
      body: { to: '2031-01-01T00:00:00.000Z' },
      other: { to: '2031-01-02T00:00:00.000Z' },
    },
  ];

  for (const write of sandboxWrites) {
    it(`when an Idempotency-Key is reused on POST ${write.path}, then 422 in the JSON error body`, async () => {
      const send = (body: unknown) =>
        fetch(server.baseUrl + write.path, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${acme.token}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': `reuse-${write.path}`,
          },
          body: JSON.stringify(body),
        });
      const first = await send(write.body);
      expect(first.status, await first.clone().text()).toBeLessThan(300);
      const reused = await send(write.other);
      expect(reused.status).toBe(422);
      expect(reused.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await reused.json()) as { code: number; reason: string; requestId: string };
      expect(body).toMatchObject({ code: 422, reason: 'idempotency_key_reused' });
      expect(body.requestId).toBe(reused.headers.get('x-request-id'));
    });
  }

  it('when a JSON body of 3 MiB is sent to a write, then 413 in the JSON error body', async () => {
    const big = JSON.stringify({ description: 'x'.repeat(3 * 1024 * 1024), brlAmount: 1 });
    for (const path of ['/sandbox/v1/banking-transactions', '/cost-centers/v1/cost-centers']) {
      const res = await fetch(server.baseUrl + path, {
        method: 'POST',
        headers: { Authorization: `Bearer ${acme.token}`, 'Content-Type': 'application/json' },
        body: big,
      });
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as { code: number; reason: string; requestId: string };
      expect(body).toMatchObject({ code: 413, reason: 'payload_too_large' });
      expect(body.requestId).toBe(res.headers.get('x-request-id'));
    }
  });

  it('when an upload or receipt token is not of the issued shape, then 400 on both; altered, then 403 on both', async () => {
    const upload = (token: string) =>
      fetch(`${server.baseUrl}/attachments/v1/uploads/${token}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/pdf' },
        body: '%PDF-1.7 test',
      });
    const receipt = (token: string) => fetch(`${server.baseUrl}/statements/v1/receipts/${token}`);
    for (const malformed of ['not-a-token', 'a.b.c', `${'a'.repeat(600)}.b`]) {
      expect((await upload(malformed)).status, malformed).toBe(400);
      expect((await receipt(malformed)).status, malformed).toBe(400);
    }
    const altered = 'eyJ0IjoiYiIsImkiOjQ4MjEzfQ.c2lnbmF0dXJl';
    expect((await upload(altered)).status).toBe(403);
    expect((await receipt(altered)).status).toBe(403);
  });
});
