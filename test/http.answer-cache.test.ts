// Versioned answers kept (server/http/mechanisms/answer-cache.ts): a statement list or change feed
// asked again under the same ETag is answered from memory, byte for byte what was answered before,
// and never after a change it shows — whoever made the change, this process or another on the same
// database — nor across companies or queries. The access log says which answers were kept.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerCache } from '../server/http/mechanisms/answer-cache.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';

const lines: Array<Record<string, unknown>> = [];
let server: TestServer;
let acme: TestCompany;
let ids: number[];
let sent = 0;

beforeAll(async () => {
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    }),
  );
  server = await startTestServer({ logger });
  acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  ids = await createBankingTransactions(server.db, acme.companyId, account, [{}, {}, {}]);
});
afterAll(async () => server?.close());

/** A GET as `company`, with whether the server's access line for it says its answer was kept. */
async function get(path: string, company: TestCompany = acme, method = 'GET') {
  const requestId = `answer-cache-${(sent += 1)}`;
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${company.token}`, 'X-Request-Id': requestId },
  });
  const body = await res.text();
  const lineOf = () => lines.find((l) => (l.req as { id?: string } | undefined)?.id === requestId);
  // The access line is written when the answer ends, which may be after the client has read it.
  for (let i = 0; i < 50 && !lineOf(); i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(lineOf(), `the access line of ${requestId}`).toBeDefined();
  return { res, body, kept: lineOf()!.answer === 'kept' };
}

const patchNotes = (id: number, notes: string, company: TestCompany = acme) =>
  company.api.PATCH('/statements/v1/banking/{transactionId}', {
    params: { path: { transactionId: id } },
    body: { notes },
  });

const notesOf = (body: string, id: number) =>
  (JSON.parse(body) as { transactions: Array<{ id: number; notes?: string | null }> }).transactions.find(
    (t) => t.id === id,
  )?.notes;

describe('versioned answers kept', () => {
  it('when the banking list is asked again, then the same bytes and headers come from memory', async () => {
    const path = '/statements/v1/banking?limit=2';
    const first = await get(path);
    expect(first.res.status).toBe(200);
    expect(first.kept).toBe(false);
    const again = await get(path);
    expect(again.kept).toBe(true);
    expect(again.body).toBe(first.body);
    for (const name of ['etag', 'cache-control', 'content-type', 'content-length'])
      expect(again.res.headers.get(name), name).toBe(first.res.headers.get(name));
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(Number(/^finance_kept_answers_total (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    const head = await get(path, acme, 'HEAD');
    expect(head.res.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.res.headers.get('etag')).toBe(first.res.headers.get('etag'));
  });

  it('when a transaction is annotated through the API, then the next list shows it, computed afresh', async () => {
    const path = '/statements/v1/banking?limit=10';
    await get(path);
    expect((await get(path)).kept).toBe(true);
    expect((await patchNotes(ids[0]!, 'Conferido pelo financeiro')).response.status).toBe(204);
    const after = await get(path);
    expect(after.kept).toBe(false);
    expect(notesOf(after.body, ids[0]!)).toBe('Conferido pelo financeiro');
    expect((await get(path)).kept).toBe(true);
  });

  it('when another process on the same database annotates, then this one answers the change, not what it kept', async () => {
    const path = '/statements/v1/banking/sync';
    await get(path);
    expect((await get(path)).kept).toBe(true);
    const other = await startTestServer({ dbPath: server.location });
    try {
      const { response } = await other.apiWithToken(acme.token).PATCH('/statements/v1/banking/{transactionId}', {
        params: { path: { transactionId: ids[1]! } },
        body: { notes: 'Anotada pelo outro processo' },
      });
      expect(response.status).toBe(204);
    } finally {
      await other.close();
    }
    const after = await get(path);
    expect(after.kept).toBe(false);
    expect(after.body).toContain('Anotada pelo outro processo');
  });

  it('when another company or another query asks, then nothing kept for the first is answered', async () => {
    const path = '/statements/v1/banking?limit=3';
    await get(path);
    expect((await get(path)).kept).toBe(true);
    const globex = await server.newCompany();
    const theirs = await get(path, globex);
    expect(theirs.kept).toBe(false);
    expect(JSON.parse(theirs.body)).toEqual({ transactions: [] });
    expect((await get('/statements/v1/banking?limit=3&sorting=transactionDate:asc')).kept).toBe(false);
  });
});

describe('ANSWER_CACHE_MB=0', () => {
  it('when nothing may be kept, then every answer is computed', async () => {
    const off = await startTestServer({ config: { answerCacheBytes: 0 } });
    try {
      const company = await off.newCompany();
      const path = `${off.baseUrl}/statements/v1/banking?limit=2`;
      const headers = { Authorization: `Bearer ${company.token}` };
      const [a, b] = [await fetch(path, { headers }), await fetch(path, { headers })];
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(await b.text()).toBe(await a.text());
    } finally {
      await off.close();
    }
  });
});

describe('AnswerCache', () => {
  const answer = (bytes: number) => ({ body: Buffer.alloc(bytes, 'x') });

  it('when the budget is full, then the least recently answered goes first', () => {
    const cache = new AnswerCache(1000);
    cache.set('a', answer(100));
    cache.set('b', answer(100));
    expect(cache.get('a')).toBeDefined();
    for (const tag of ['c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']) cache.set(tag, answer(100));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(1000);
  });

  it('when an answer is larger than an eighth of the budget, then it is not kept', () => {
    const cache = new AnswerCache(8000);
    cache.set('small', answer(995));
    cache.set('large', answer(996));
    expect(cache.get('small')).toBeDefined();
    expect(cache.get('large')).toBeUndefined();
  });

  it('when a tag is kept again, then its bytes are counted once', () => {
    const cache = new AnswerCache(10_000);
    cache.set('a', answer(500));
    cache.set('a', answer(300));
    expect(cache.size).toEqual({ answers: 1, bytes: 301 });
  });
});
