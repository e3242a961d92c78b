// Errors an integration can branch on: every error body carries a snake_case `reason` from the
// contract's list, the `param` as the caller sent it, a `docUrl` to its docs section, and a message
// in the caller's terms (a did-you-mean for a misspelt field or parameter, the allowed values and
// the value sent, the date format).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/openapi.js';
import { createAccount, createBankingTransaction } from './support/factories/statements.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

type ErrorReason = components['schemas']['ErrorReason'];
type Explained = { reason?: ErrorReason; param?: string; docUrl?: string; message: string; details?: unknown[] };

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
});
afterAll(async () => server.close());

/** A raw call (bodies the typed client refuses to compile are the point here), as a fresh client. */
async function raw(path: string, init: RequestInit = {}, company?: TestCompany) {
  const who = company ?? (await server.newCompany());
  const res = await fetch(server.baseUrl + path, {
    ...init,
    headers: { Authorization: `Bearer ${who.token}`, 'Content-Type': 'application/json', ...init.headers },
  });
  return { status: res.status, body: (await res.json()) as Explained };
}

describe('validation errors in the caller’s terms', () => {
  it('when a PATCH body misspells isConciled, then 400 unknown_field names isConcilied and suggests isConciled', async () => {
    const account = await createAccount(server.db, acme.companyId);
    const id = await createBankingTransaction(server.db, acme.companyId, account, { status: 2 });
    const { error, response } = await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: id } },
      body: { isConcilied: true } as never,
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({
      reason: 'unknown_field',
      param: 'isConcilied',
      message: 'Unknown field "isConcilied" in the body; did you mean "isConciled"?',
      docUrl: `${server.baseUrl}/docs#/section/error-reasons/unknown_field`,
    });
    const row = await server.db.selectFrom('banking_transactions').selectAll().where('id', '=', id).executeTakeFirst();
    expect(row?.conciled).toBeFalsy();
  });

  it('when status=7 is sent, then 400 invalid_value says status must be one of 1, 2, 3 (got 7)', async () => {
    const { body, status } = await raw('/statements/v1/banking?status=7');
    expect(status).toBe(400);
    expect(body).toMatchObject({
      reason: 'invalid_value',
      param: 'status',
      message: 'status must be one of 1, 2, 3 (got 7)',
    });
  });

  it('when startDate is not a calendar date, then 400 names startDate and the YYYY-MM-DD format', async () => {
    const { body } = await raw('/statements/v1/banking?startDate=2026-11-31&endDate=2026-12-30');
    expect(body).toMatchObject({
      reason: 'invalid_value',
      param: 'startDate',
      message: 'startDate must be a date (YYYY-MM-DD) (got 2026-11-31)',
    });
  });

  it('when a query parameter is misspelt, then 400 unknown_query_parameter suggests the one meant', async () => {
    const { body } = await raw('/statements/v1/banking?limt=5');
    expect(body).toMatchObject({
      reason: 'unknown_query_parameter',
      param: 'limt',
      message: 'Unknown query parameter "limt"; did you mean "limit"?',
    });
  });

  it('when an unknown field resembles nothing, then the message suggests nothing', async () => {
    const { body } = await raw('/cost-centers/v1/cost-centers', {
      method: 'POST',
      body: JSON.stringify({ name: 'Ops', zzzzzzzz: 1 }),
    });
    expect(body).toMatchObject({ reason: 'unknown_field', param: 'zzzzzzzz' });
    expect(body.message).toBe('Unknown field "zzzzzzzz" in the body');
  });

  it('when a required field is absent, then 400 missing_field names it', async () => {
    const { body } = await raw('/cost-centers/v1/cost-centers', { method: 'POST', body: '{}' });
    expect(body).toMatchObject({ reason: 'missing_field', param: 'name', message: 'Missing field "name" in the body' });
  });

  it('when limit is one beyond its maximum, then 400 says at most 50 (got 51); at the maximum it passes', async () => {
    expect((await raw('/statements/v1/banking?limit=50')).status).toBe(200);
    const { body } = await raw('/statements/v1/banking?limit=51');
    expect(body).toMatchObject({
      reason: 'invalid_value',
      param: 'limit',
      message: 'limit must be at most 50 (got 51)',
    });
  });

  it('when a users body has a misspelt field, then the field body names it and suggests the right one', async () => {
    const { body } = await raw('/users/v1/invites', {
      method: 'POST',
      body: JSON.stringify({ emial: 'a@example.com', roleId: 1 }),
    });
    expect(body.reason).toBeDefined();
    expect(body.details).toContainEqual({
      field: 'emial',
      message: 'Unknown field "emial" in the body; did you mean "email"?',
    });
  });

  it('when a virtual-card body has a bad amount, then the VCN code stays and reason and param are added', async () => {
    const { body } = await raw('/credit-cards/v1/vcns', {
      method: 'POST',
      body: JSON.stringify({ type: 'CUSTOM', nope: 1 }),
    });
    expect(body).toMatchObject({ code: 'bad-request-exception' });
    expect(['missing_field', 'unknown_field']).toContain(body.reason);
    expect((body as { errors?: unknown[] }).errors).toContainEqual({
      field: 'body.nope',
      message: 'Unknown field "nope" in the body',
    });
  });
});

describe('reasons beyond validation', () => {
  it('when the resource is absent or of another company, then 404 not_found; an unknown path is unknown_path', async () => {
    const other = await server.newCompany();
    const { data } = await other.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Theirs' } });
    const { body } = await raw(`/cost-centers/v1/cost-centers/${data!.id}`);
    expect(body.reason).toBe('not_found');
    expect((await raw('/cost-centers/v1/cost-center')).body.reason).toBe('unknown_path');
  });

  it('when the token lacks the scope, then 403 insufficient_scope', async () => {
    const reader = await server.newCompany({ scopes: ['statements:read'] });
    const { body, status } = await raw('/cost-centers/v1/cost-centers', {}, reader);
    expect(status).toBe(403);
    expect(body.reason).toBe('insufficient_scope');
  });

  it('when there is no token, then 401 unauthenticated', async () => {
    const res = await fetch(`${server.baseUrl}/cost-centers/v1/cost-centers`);
    expect(((await res.json()) as Explained).reason).toBe('unauthenticated');
  });

  it('when an Idempotency-Key is reused for another body, then 422 idempotency_key_reused names the header', async () => {
    const company = await server.newCompany();
    const send = (name: string) =>
      raw(
        '/cost-centers/v1/cost-centers',
        { method: 'POST', headers: { 'Idempotency-Key': 'key-1' }, body: JSON.stringify({ name }) },
        company,
      );
    expect((await send('First')).status).toBe(201);
    const { body, status } = await send('Second');
    expect(status).toBe(422);
    expect(body).toMatchObject({ reason: 'idempotency_key_reused', param: 'Idempotency-Key' });
  });

  it('when the JSON is malformed, then 400 invalid_json', async () => {
    const { body } = await raw('/cost-centers/v1/cost-centers', { method: 'POST', body: '{"name": ' });
    expect(body.reason).toBe('invalid_json');
  });
});

describe('rate limits', () => {
  it('when a client sends one request beyond its per-minute limit, then 429 rate_limited', async () => {
    const limited = await startTestServer({ config: { rateLimitPerMinute: 3 } });
    try {
      const company = await limited.newCompany();
      const statuses: number[] = [];
      let last: Explained | undefined;
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`${limited.baseUrl}/cost-centers/v1/cost-centers`, {
          headers: { Authorization: `Bearer ${company.token}` },
        });
        statuses.push(res.status);
        last = (await res.json()) as Explained;
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last?.reason).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });
});
