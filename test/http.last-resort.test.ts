import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { onPostgres } from './support/database.js';
import { ApiError } from '../server/kit/errors.js';

let server: TestServer;
let acme: TestCompany;
let probeFails = false;

beforeAll(async () => {
  server = await startTestServer({
    config: { overloadMaxLagMs: 1000 },
    lagProbe: () => ({
      lagMs: () => {
        if (probeFails) throw new TypeError('probe broke at /work/server/http/overload.ts:48');
        return 0;
      },
      stop: () => undefined,
    }),
  });
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const call = (path: string, init: RequestInit = {}) =>
  fetch(server.baseUrl + path, {
    ...init,
    headers: { Authorization: `Bearer ${acme.token}`, 'X-Request-Id': `req-${Math.random()}`, ...(init.headers ?? {}) },
  });

/** The contract's 500: JSON, no stack, no path, the request id of the header. */
async function expectLastResort(res: Response) {
  expect(res.status).toBe(500);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const text = await res.text();
  expect(text).not.toMatch(/<html|<pre|\bat [\w.<>]+ \(|\/work\/|node_modules|\.ts\b|\.js\b/i);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body).toMatchObject({ error: 'Internal Server Error', code: 500, reason: 'internal_error' });
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
  expect(body.requestId).toBeTruthy();
}

describe('the last line of defence', () => {
  it('when a middleware throws, then 500 in the JSON error body with the request id', async () => {
    probeFails = true;
    try {
      await expectLastResort(await call('/cost-centers/v1/cost-centers'));
    } finally {
      probeFails = false;
    }
  });

  it('when a handler throws, then 500 in the JSON error body with the request id', async () => {
    const other = await startTestServer();
    const company = await other.newCompany();
    await (onPostgres ? sql`DROP TABLE suppliers CASCADE` : sql`DROP TABLE suppliers`)
      .execute(other.db)
      .catch(() => undefined);
    const res = await fetch(`${other.baseUrl}/suppliers/v1/suppliers`, {
      headers: { Authorization: `Bearer ${company.token}` },
    });
    await expectLastResort(res);
    await other.close();
  });

  it('when the answer fails response validation, then 500 in the JSON error body, never the HTML page', async () => {
    const { data } = await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Invalid on the way out' } });
    await sql`UPDATE cost_centers SET id = 'not-a-uuid' WHERE id = ${data!.id}`.execute(server.db);
    await expectLastResort(await call('/cost-centers/v1/cost-centers'));
  });

  it('when an error answer itself fails response validation, then 500 in the JSON error body, never the HTML page', async () => {
    // A status the operation does not declare, raised in its handler: the validator rejects the
    // error handler's own answer after the chain has ended.
    const db = server.db as unknown as { selectFrom(table: string): unknown };
    const selectFrom = db.selectFrom;
    db.selectFrom = function (this: unknown, table: string) {
      if (table.startsWith('suppliers')) throw new ApiError(418, 'An undeclared status');
      return selectFrom.call(this, table);
    };
    try {
      const res = await call('/suppliers/v1/suppliers');
      await expectLastResort(res);
    } finally {
      db.selectFrom = selectFrom;
    }
  });
});
