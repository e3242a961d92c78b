// A SQLite store that cannot grow (SQLITE_FULL, as on a full disk): writes through the API answer 503
// with Retry-After in the contract's error body, never 500; reads keep working, the server keeps
// serving, and writes succeed again once the store may grow. The limit is SQLite's own
// `max_page_count`, set on the server's writer connection (it is a per-connection setting, so a
// second connection cannot impose it). PostgreSQL has no such limit: ops.outages.test.ts covers it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Writable } from 'node:stream';
import { createLogger } from '../server/http/pipeline/logger.js';
import { onPostgres } from './support/database.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;
/** The server's log lines (warnings and errors), as JSON. */
const logged: Array<{ msg: string; requestId?: string; err?: { code?: string } }> = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push(JSON.parse(line));
    done();
  },
});

beforeAll(async () => {
  if (onPostgres) return;
  server = await startTestServer({ config: { rateLimitPerMinute: 0 }, logger: createLogger('warn', logStream) });
  acme = await server.newCompany();
});
afterAll(async () => {
  await server?.close();
});

/** Sets the largest size the writer connection lets the file grow to (never below its size); answers it. */
async function maxPageCount(pages: number): Promise<number> {
  const { rows } = await server.db
    .transaction()
    .execute((trx) => sql.raw<{ max_page_count: number }>(`pragma max_page_count = ${pages}`).execute(trx));
  return Number(rows[0]?.max_page_count);
}

const createCostCenter = (n: number) =>
  acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: `Centro de custo ${n} ${'x'.repeat(80)}` } });

describe.skipIf(onPostgres)('a full SQLite store (SQLite only: PostgreSQL has no page limit to set)', () => {
  it('when the database file cannot grow, then writes answer 503 with Retry-After in the error body, reads and the server go on, and writes succeed once it can grow again', async () => {
    const size = await maxPageCount(1); // clamped to the file's current size: no new page
    expect(size).toBeGreaterThan(1);

    // Rows fill the pages the file has; the first write that needs a new page fails.
    let refused: Awaited<ReturnType<typeof createCostCenter>> | undefined;
    let created = 0;
    for (let n = 0; n < 5_000 && !refused; n += 1) {
      const answer = await createCostCenter(n);
      if (answer.response.status === 201) created += 1;
      else refused = answer;
    }
    expect(refused?.response.status).toBe(503);
    expect(refused?.response.headers.get('Retry-After')).toBe('2');
    expect(refused?.error).toMatchObject({ error: 'Service Unavailable', code: 503 });
    const requestId = refused?.response.headers.get('X-Request-Id');
    expect(refused?.error?.requestId).toBe(requestId);
    // The outage is logged once when it starts (and once when it ends), not once per refused request.
    const unavailable = () => logged.filter((line) => String(line.msg).startsWith('database unavailable'));
    expect(unavailable()).toEqual([expect.objectContaining({ err: expect.objectContaining({ code: 'SQLITE_FULL' }) })]);

    // Still full: the next write is refused the same way, and nothing of the refused ones was kept.
    expect((await createCostCenter(-1)).response.status).toBe(503);
    const { data: listed, response: read } = await acme.api.GET('/cost-centers/v1/cost-centers');
    expect(read.status).toBe(200);
    expect(listed?.items).toHaveLength(created);
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);

    expect(await maxPageCount(1_073_741_823)).toBe(1_073_741_823);
    const again = await createCostCenter(created + 1);
    expect(again.response.status).toBe(201);
    expect(unavailable()).toHaveLength(1);
    expect(logged.filter((line) => line.msg === 'database recovered')).toEqual([
      expect.objectContaining({ failedRequests: 2 }),
    ]);
    const { response } = await acme.api.GET('/cost-centers/v1/cost-centers/{id}', {
      params: { path: { id: again.data!.id } },
    });
    expect(response.status).toBe(200);
  });
});
