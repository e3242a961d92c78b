// What protects the service from exports: the company's concurrent exports (leases shared by every
// worker, 429 + Retry-After beyond), the rate limit (an export is one request), a client that leaves
// (the export stops and gives its slot back), and the request log (filters, rows, completion).
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinanceApiError } from '../client/index.js';
import { createLogger } from '../server/http/pipeline/logger.js';
import type { LagProbe } from '../server/http/ops/overload.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';
import { financeOf, text } from './support/exports.js';
import { onPostgres } from './support/database.js';

const ROWS = 30_000;
const lines: string[] = [];
let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  server = await startTestServer({ config: { exportsPerCompany: 2 }, logger: createLogger('info', sink) });
  acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  // Long enough a file (≈ 30 MB of CSV) that it cannot sit whole in the socket buffers.
  const notes = 'Conciliado com a nota fiscal e o pedido de compra correspondentes. '.repeat(12);
  for (let from = 0; from < ROWS; from += 5_000) {
    await createBankingTransactions(
      server.db,
      acme.companyId,
      account,
      Array.from({ length: 5_000 }, () => ({ notes })),
    );
  }
}, 300_000);
afterAll(async () => server.close());

const leases = (companyId: string) =>
  server.db.selectFrom('export_leases').selectAll().where('company_id', '=', companyId).execute();

/** Exports running elsewhere (another worker or replica), as their leases. */
async function runningElsewhere(companyId: string, count: number, expiresAt = server.clock.now().getTime() + 60_000) {
  for (let i = 0; i < count; i += 1)
    await server.db
      .insertInto('export_leases')
      .values({ id: `elsewhere-${companyId}-${i}-${expiresAt}`, company_id: companyId, expires_at: expiresAt })
      .execute();
}

async function until(condition: () => Promise<boolean>) {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

const exportLines = () =>
  lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.includes('"export"'))
    .map((l) => JSON.parse(l) as { export: { filters: Record<string, unknown>; rows: number; completed: boolean } });

describe('downloadBankingExport limits', () => {
  it('when the company runs one export fewer than its limit, then one more streams, and its slot is free once it has arrived', async () => {
    const small = await server.newCompany();
    await runningElsewhere(small.companyId, 1);
    for (let i = 0; i < 5; i += 1) {
      const body = await text(await financeOf(server, small, { retry: false }).exports.banking({ format: 'csv' }));
      expect(body.split('\r\n')[0]).toMatch(/^id,/);
      expect(await leases(small.companyId)).toHaveLength(1);
    }
    await server.db.deleteFrom('export_leases').where('company_id', '=', small.companyId).execute();
  });

  it('when the company already runs as many exports as it may, then 429 with Retry-After, other companies unaffected', async () => {
    const busy = await server.newCompany();
    const other = await server.newCompany();
    await runningElsewhere(busy.companyId, 2);
    const { response, error } = await busy.api.GET('/statements/v1/exports/banking', {
      params: { query: { format: 'csv' } },
      parseAs: 'text',
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(error).toMatchObject({ code: 429, error: 'Too Many Requests' });
    const refused = await financeOf(server, busy, { retry: false })
      .exports.creditCard({ format: 'ofx' })
      .catch((e: unknown) => e);
    expect((refused as FinanceApiError).status).toBe(429);
    expect((await financeOf(server, other).exports.banking({ format: 'csv' })).locked).toBe(false);
  });

  it('when a running export stopped renewing its lease (its process died), then it no longer counts', async () => {
    const crashed = await server.newCompany();
    await runningElsewhere(crashed.companyId, 2, server.clock.now().getTime() - 1);
    const body = await text(await financeOf(server, crashed).exports.banking({ format: 'csv' }));
    expect(body).toMatch(/^id,/);
  });

  it('when the client stops reading and leaves, then the export stops early, frees its slot and logs it unfinished', async () => {
    const controller = new AbortController();
    const body = await financeOf(server, acme).exports.banking(
      { format: 'csv', status: [2] },
      { signal: controller.signal },
    );
    const reader = body.getReader();
    expect((await reader.read()).done).toBe(false);
    expect(await leases(acme.companyId)).toHaveLength(1);
    controller.abort();
    await reader.cancel().catch(() => undefined);
    await until(async () => (await leases(acme.companyId)).length === 0);
    await until(async () => exportLines().some((l) => l.export.completed === false));
    const stopped = exportLines().find((l) => l.export.completed === false)!;
    expect(stopped.export.filters).toMatchObject({ status: [2], format: 'csv' });
    expect(stopped.export.rows).toBeLessThan(ROWS);
  });

  it('when rows are ingested while an export streams, then every earlier row once; on PostgreSQL none of the new', async () => {
    const before = await server.db
      .selectFrom('banking_transactions')
      .select('id')
      .where('company_id', '=', acme.companyId)
      .execute();
    const body = await financeOf(server, acme).exports.banking({ format: 'csv' });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let csv = decoder.decode((await reader.read()).value, { stream: true });
    const account = await createAccount(server.db, acme.companyId);
    // Oldest of all: under the default order they come last, after everything read so far.
    const added = await createBankingTransactions(server.db, acme.companyId, account, [
      { transaction_date: '2001-01-01T12:00:00.000Z' },
      { transaction_date: '2001-01-02T12:00:00.000Z' },
    ]);
    for (let part = await reader.read(); !part.done; part = await reader.read())
      csv += decoder.decode(part.value, { stream: true });
    const ids = csv
      .split('\r\n')
      .slice(1, -1)
      .map((line) => Number(line.slice(0, line.indexOf(','))));
    const earlier = ids.filter((id) => !added.includes(id));
    expect(earlier).toHaveLength(before.length);
    expect(new Set(earlier)).toEqual(new Set(before.map((r) => r.id)));
    if (onPostgres) expect(ids.filter((id) => added.includes(id))).toEqual([]);
    await server.db.deleteFrom('banking_transactions').where('id', 'in', added).execute();
  });

  it('when an export completes, then the request log has its filters and row count', async () => {
    const body = await text(await financeOf(server, acme).exports.banking({ format: 'ofx', status: [2] }));
    expect(body.endsWith('</OFX>\r\n')).toBe(true);
    const ofx = () => exportLines().find((l) => l.export.filters.format === 'ofx');
    await until(async () => ofx() !== undefined);
    const done = ofx()!;
    expect(done.export).toMatchObject({ rows: ROWS, completed: true, filters: { status: [2], format: 'ofx' } });
  });
});

describe('downloadBankingExport and the rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ config: { rateLimitPerMinute: 2 } });
  });
  afterAll(async () => limited.close());

  it('when a client has used its requests of the minute on a list page and an export, then the next export is 429', async () => {
    const company = await limited.newCompany();
    expect((await company.api.GET('/statements/v1/banking')).response.status).toBe(200);
    const ok = await company.api.GET('/statements/v1/exports/banking', {
      params: { query: { format: 'csv' } },
      parseAs: 'text',
    });
    expect(ok.response.status).toBe(200);
    expect(ok.response.headers.get('ratelimit')).toMatch(/^"default"; r=0; t=\d+$/);
    const refused = await company.api.GET('/statements/v1/exports/banking', {
      params: { query: { format: 'csv' } },
      parseAs: 'text',
    });
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('downloadBankingExport under overload', () => {
  let lag = 0;
  let shedding: TestServer;
  beforeAll(async () => {
    const probe = (): LagProbe => ({ lagMs: () => lag, stop: () => undefined });
    shedding = await startTestServer({ config: { overloadMaxLagMs: 100 }, lagProbe: probe });
  });
  afterAll(async () => shedding.close());

  it('when the event loop is behind, then 503 with Retry-After and no slot taken; at the threshold, the export streams', async () => {
    const company = await shedding.newCompany();
    lag = 250;
    const { response, error } = await company.api.GET('/statements/v1/exports/credit-card', {
      params: { query: { format: 'ofx' } },
      parseAs: 'text',
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(error).toMatchObject({ code: 503, error: 'Service Unavailable' });
    expect(await shedding.db.selectFrom('export_leases').selectAll().execute()).toEqual([]);
    lag = 100;
    const body = await text(await financeOf(shedding, company).exports.creditCard({ format: 'ofx' }));
    expect(body.endsWith('</OFX>\r\n')).toBe(true);
    lag = 0;
  });
});
