// OpenTelemetry export: a real `finance serve` with OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP
// HTTP receiver in this test sends the request's spans, in the caller's trace, named by the contract's
// route template (and, on PostgreSQL, the queries' spans in the same trace).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../server/db/database.js';
import { freshDatabase, onPostgres } from './support/database.js';
import { sharedCompany, startProcesses, type ServerProcess, type SharedCompany } from './support/processes.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const SERVER_KIND = 2;

let dir: string;
let receiver: Server;
let db: Db;
let servers: ServerProcess[];
let company: SharedCompany;
const spans: OtlpSpan[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ops-tracing-'));
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const { resourceSpans } = JSON.parse(body) as {
          resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
        };
        for (const r of resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as { port: number };
  ({ db, servers } = await startProcesses(await freshDatabase(dir), [1], {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  }));
  company = await sharedCompany(db, servers);
}, 120_000);
afterAll(async () => {
  await Promise.all((servers ?? []).map((s) => s.stop()));
  await db?.destroy();
  receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

async function spansOf(traceId: string, until: (found: OtlpSpan[]) => boolean): Promise<OtlpSpan[]> {
  for (let i = 0; i < 40; i += 1) {
    const found = spans.filter((s) => s.traceId === traceId);
    if (until(found)) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return spans.filter((s) => s.traceId === traceId);
}

describe('OpenTelemetry export', () => {
  it("when OTEL_EXPORTER_OTLP_ENDPOINT is set, then the request's server span reaches the receiver in the caller's trace, named by the route template", async () => {
    const { response } = await company.apis[0]!.GET('/cost-centers/v1/cost-centers', {
      headers: { traceparent: `00-${TRACE}-${CALLER_SPAN}-01` },
    });
    expect(response.status).toBe(200);
    const answered = response.headers.get('traceparent')!.split('-');
    expect(answered[1]).toBe(TRACE);

    const found = await spansOf(TRACE, (f) =>
      f.some((s) => s.kind === SERVER_KIND && attribute(s, 'http.route') !== undefined),
    );
    const server = found.find((s) => s.kind === SERVER_KIND);
    expect(server).toBeDefined();
    expect(server!.parentSpanId).toBe(CALLER_SPAN);
    expect(server!.spanId).toBe(answered[2]);
    expect(attribute(server!, 'http.route')).toBe('/cost-centers/v1/cost-centers');
    expect(server!.name).toBe('GET /cost-centers/v1/cost-centers');
    if (onPostgres) {
      const queries = await spansOf(TRACE, (f) => f.some((s) => attribute(s, 'db.system.name') === 'postgresql'));
      expect(queries.some((s) => attribute(s, 'db.system.name') === 'postgresql')).toBe(true);
    }
  }, 60_000);
});
