// What an operator reads: `/metrics` (Prometheus text, OpenTelemetry names, the route template and
// never a raw id, protected in production, one scrape for every worker), `/ready`, and the W3C trace
// context in answers and log lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { freshDatabase, onPostgres } from './support/database.js';
import { startProcesses, sharedCompany } from './support/processes.js';
import { createLogger } from '../server/http/pipeline/logger.js';
import { publishIngest } from '../server/areas/statements/store/ingest-runs.js';
import { sql } from 'kysely';

let server: TestServer;
let acme: TestCompany;
let logLines: Array<Record<string, unknown>>;
const cleanups: Array<() => Promise<unknown>> = [];

/** A logger whose JSON lines the test reads. */
function capturedLogs() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  return { logger: createLogger('info', stream), lines };
}

beforeAll(async () => {
  const { logger, lines } = capturedLogs();
  logLines = lines;
  server = await startTestServer({ logger, config: { rateLimitPerMinute: 5 } });
  acme = await server.newCompany();
});
afterAll(async () => {
  await server.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const scrape = async (base = server.baseUrl, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};

/** The value of one sample line, e.g. `name{labels}`; 0 when absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('/metrics', () => {
  it('when requests hit operations with ids, then the duration histogram counts them by route template and no raw id appears', async () => {
    const created = await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Metrics' } });
    const id = String(created.data!.id);
    for (let i = 0; i < 3; i += 1) {
      const { response } = await acme.api.GET('/cost-centers/v1/cost-centers/{id}', { params: { path: { id } } });
      expect(response.status).toBe(200);
    }
    const absent = randomUUID();
    const missing = await fetch(`${server.baseUrl}/cost-centers/v1/cost-centers/${absent}`, {
      headers: { Authorization: `Bearer ${acme.token}` },
    });
    expect(missing.status).toBe(404);
    const text = await scrape();
    const series = (status: number) =>
      `http_server_request_duration_seconds_count{http_request_method="GET",http_route="/cost-centers/v1/cost-centers/{id}",http_response_status_code="${status}"}`;
    expect(sample(text, series(200))).toBe(3);
    expect(sample(text, series(404))).toBe(1);
    expect(text).toContain('http_server_request_duration_seconds_bucket{le="0.005"');
    expect(text).not.toContain(id);
    expect(text).not.toContain(absent);
  });

  it('when scraped, then the Node and process defaults, event-loop lag and the operational counters are there', async () => {
    const text = await scrape();
    for (const name of [
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'finance_requests_shed_total',
      'finance_store_unavailable_responses_total',
      'finance_db_transaction_retries_total',
      'finance_rate_limit_refusals_total',
      'finance_idempotent_replays_total',
      'finance_webhook_oldest_pending_age_seconds',
      'db_client_connection_count',
    ]) {
      expect(text, name).toContain(`# TYPE ${name} `);
    }
    if (onPostgres) expect(text).toMatch(/^db_client_connection_count\{db_client_connection_state="idle"\} [1-9]/m);
  });

  it('when an ingest has published, then the ingest runs are counted by status', async () => {
    await publishIngest(server.db, acme.companyId, [], [], new Date());
    const text = await scrape();
    expect(text).toContain('# TYPE finance_ingest_runs gauge');
    expect(sample(text, 'finance_ingest_runs{status="DONE"}')).toBe(1);
  });

  it('when a write is replayed by its Idempotency-Key and a client passes its rate limit, then both are counted', async () => {
    const before = await scrape();
    const key = randomUUID();
    const company = await server.newCompany();
    for (let i = 0; i < 2; i += 1) {
      const { response } = await company.api.POST('/cost-centers/v1/cost-centers', {
        body: { name: 'Replayed' },
        headers: { 'Idempotency-Key': key },
      });
      expect(response.status).toBe(201);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await company.api.GET('/cost-centers/v1/cost-centers')).response.status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const after = await scrape();
    expect(sample(after, 'finance_idempotent_replays_total') - sample(before, 'finance_idempotent_replays_total')).toBe(
      1,
    );
    expect(
      sample(after, 'finance_rate_limit_refusals_total') - sample(before, 'finance_rate_limit_refusals_total'),
    ).toBe(2);
  });

  it('when NODE_ENV is production, then /metrics is 404 without METRICS_TOKEN, and 401 without the right bearer when it is set', async () => {
    const closed = await startTestServer({ config: { production: true } });
    cleanups.push(() => closed.close());
    expect((await fetch(`${closed.baseUrl}/metrics`)).status).toBe(404);

    const guarded = await startTestServer({ config: { production: true, metricsToken: 'scrape-secret' } });
    cleanups.push(() => guarded.close());
    const none = await fetch(`${guarded.baseUrl}/metrics`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ code: 401, requestId: none.headers.get('X-Request-Id') });
    const wrong = await fetch(`${guarded.baseUrl}/metrics`, { headers: { Authorization: 'Bearer scrape-secreT' } });
    expect(wrong.status).toBe(401);
    expect(await scrape(guarded.baseUrl, { Authorization: 'Bearer scrape-secret' })).toContain(
      'http_server_request_duration_seconds',
    );
  });

  it('when METRICS_PORT is set, then the API port does not serve /metrics', async () => {
    const apart = await startTestServer({ config: { metricsPort: 1 } });
    cleanups.push(() => apart.close());
    expect((await fetch(`${apart.baseUrl}/metrics`)).status).toBe(404);
  });

  it('when the server runs two workers, then one scrape counts the requests of both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-metrics-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const { db, servers } = await startProcesses(await freshDatabase(dir), [2]);
    cleanups.push(() => db.destroy());
    cleanups.push(() => Promise.all(servers.map((s) => s.stop())));
    const company = await sharedCompany(db, servers);
    const n = 24;
    await Promise.all(Array.from({ length: n }, () => company.apis[0]!.GET('/cost-centers/v1/cost-centers')));
    const series =
      'http_server_request_duration_seconds_count{http_request_method="GET",http_route="/cost-centers/v1/cost-centers",http_response_status_code="200"}';
    const text = await scrape(servers[0]!.baseUrl);
    expect(sample(text, series)).toBe(n);
    // Scraped again (the kernel may hand the connection to the other worker): the same whole count.
    expect(sample(await scrape(servers[0]!.baseUrl), series)).toBe(n);
  }, 120_000);
});

describe('/ready and /health', () => {
  it('when the database answers, then /ready is 200 naming it up, and /health is 200', async () => {
    const ready = await fetch(`${server.baseUrl}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: { status: 'up' } } });
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
  });
});

describe('trace context', () => {
  const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
  const linesOf = (requestId: string) =>
    logLines.filter((l) => (l.req as { id?: string } | undefined)?.id === requestId);

  it('when a caller sends traceparent, then the answer continues its trace with a new span and the log line carries both ids', async () => {
    const res = await fetch(`${server.baseUrl}/cost-centers/v1/cost-centers`, {
      headers: {
        Authorization: `Bearer ${acme.token}`,
        traceparent: `00-${TRACE}-00f067aa0ba902b7-01`,
        tracestate: 'congo=t61rcWkgMzE',
      },
    });
    const answered = res.headers.get('traceparent')!;
    expect(answered).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    const spanId = answered.split('-')[2];
    expect(spanId).not.toBe('00f067aa0ba902b7');
    expect(res.headers.get('tracestate')).toBe('congo=t61rcWkgMzE');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [line] = linesOf(res.headers.get('X-Request-Id')!);
    expect(line).toMatchObject({ trace_id: TRACE, span_id: spanId, route: '/cost-centers/v1/cost-centers' });
  });

  it('when no traceparent or a malformed one comes, then a new trace starts, named in the answer and the log', async () => {
    const bad = [
      undefined,
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
      `ff-${TRACE}-00f067aa0ba902b7-01`,
      `00-${TRACE}-00f067aa0ba902b7-01-extra`,
      `00-${TRACE.toUpperCase()}-00f067aa0ba902b7-01`,
    ];
    const seen = new Set<string>();
    for (const traceparent of bad) {
      const res = await fetch(`${server.baseUrl}/changelog`, { headers: traceparent ? { traceparent } : {} });
      const [, traceId, spanId] = res.headers.get('traceparent')!.split('-');
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(traceId).not.toBe(TRACE);
      seen.add(traceId!);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(linesOf(res.headers.get('X-Request-Id')!)[0]).toMatchObject({ trace_id: traceId, span_id: spanId });
    }
    expect(seen.size).toBe(bad.length);
  });

  it('when a request fails inside, then the error line written on the way carries the trace id too', async () => {
    const { logger, lines } = capturedLogs();
    const broken = await startTestServer({ logger });
    cleanups.push(() => broken.close());
    const company = await broken.newCompany();
    await (onPostgres ? sql`DROP TABLE suppliers CASCADE` : sql`DROP TABLE suppliers`).execute(broken.db);
    const res = await fetch(`${broken.baseUrl}/suppliers/v1/suppliers`, {
      headers: { Authorization: `Bearer ${company.token}`, traceparent: `00-${TRACE}-00f067aa0ba902b7-01` },
    });
    expect(res.status).toBe(500);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const spanId = res.headers.get('traceparent')!.split('-')[2];
    const errorLine = lines.find((l) => l.msg === 'unhandled error');
    expect(errorLine).toMatchObject({ trace_id: TRACE, span_id: spanId });
  });
});
