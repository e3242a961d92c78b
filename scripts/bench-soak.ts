// `npm run bench:soak`: hours, not minutes. Starts the real server (`finance serve` from the compiled `dist/`, one process,
// sandbox mode so the test helpers answer) on a seeded SQLite file and drives a steady, moderate
// mixed workload for a configurable time: reads (lists, an item), writes (cost centers), CSV
// exports, the sandbox's transaction helpers, webhook deliveries to a local receiver (every write
// and helper records an event), and a `finance ingest` of a small file every few minutes. It reports
// per minute the requests, the errors (anything but the expected status, or no answer) and the p99
// latency, and the server process's RSS and V8 heap over time, with their slope in MB/hour over the
// second half of the run (a leak grows steadily; a healthy process levels off).
// Usage: npm run bench:soak -- [--minutes 20] [--rate 20] [--transactions 5000] [--db FILE] [--json]
//   --minutes N       how long to drive the server (default 20)
//   --rate R          requests per second, sent at a steady pace (default 20)
//   --transactions N  banking transactions seeded into the read company (default 5000)
//   --db FILE         keeps the seeded database in FILE and reuses it on the next run
//   --ingest-every M  minutes between two `finance ingest` runs (default 5; the first after 1 minute)
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPostgresUrl, openStore } from '../server/db/store.js';
import { prepareDatabase } from './bench-http/setup.js';
import { buildServer } from './bench-http/compiled.js';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.indexOf(`--${name}`) >= 0 ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const MINUTES = Number(option('minutes') ?? 20);
const RATE = Number(option('rate') ?? 20);
const TRANSACTIONS = Number(option('transactions') ?? 5_000);
const INGEST_EVERY_MIN = Number(option('ingest-every') ?? 5);
const JSON_OUT = argv.includes('--json');
const PORT = 48_201;
const NODE = [process.execPath, '--import', 'tsx'];

const dir = mkdtempSync(join(tmpdir(), 'bench-soak-'));
const file = option('db') ?? join(dir, 'soak.sqlite');

interface Op {
  name: string;
  /** Share of the requests. */
  weight: number;
  expect: number;
  send: (base: string) => Promise<Response>;
}

/** The webhook receiver: answers 200 to every delivery and counts them. */
function receiver(): Promise<{ server: Server; port: number; count: () => number }> {
  let deliveries = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries += 1;
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as { port: number }).port, count: () => deliveries }),
    ),
  );
}

async function ready(child: ChildProcess) {
  for (let i = 0; i < 600; i += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not start');
}

/** The server's RSS (from /proc) and V8 heap in use (from its /metrics), in MB. */
async function memoryOf(pid: number, base: string): Promise<{ rss: number; heap: number }> {
  let rss = Number.NaN;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    rss = Number(kb) / 1024;
  } catch {
    // not Linux: the metric below
  }
  const metrics = await (await fetch(`${base}/metrics`)).text();
  const heap = Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(metrics)?.[1]) / 1024 / 1024;
  if (Number.isNaN(rss)) rss = Number(/^process_resident_memory_bytes (\S+)/m.exec(metrics)?.[1]) / 1024 / 1024;
  return { rss, heap };
}

/** Least-squares slope of (hours, MB) points, in MB per hour. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? Number.NaN : num / den;
}

const p99 = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
};

/** A small JSON Lines file of banking transactions for the writes company's first account. */
function ingestFile(accountId: number, run: number, lines = 50): string {
  const path = join(dir, `ingest-${run}.jsonl`);
  const rows = Array.from({ length: lines }, (_, i) =>
    JSON.stringify({
      statement: 'banking',
      externalId: `soak-${process.pid}-${run}-${i}`,
      transaction: {
        transactionType: { id: 2, description: 'PIX enviado', icon: 'pix', subType: 'DEBIT' },
        status: 2,
        accountId,
        finalCardNumber: null,
        bearerName: null,
        transactionDate: new Date().toISOString(),
        brlAmount: 10 + i,
        usdAmount: null,
        usdExchangeRate: null,
        usdExchangeRateDate: null,
        totalTransactionAmount: 10 + i,
        iofAmount: 0,
        feeServiceAmount: 0,
        mccCode: null,
        mccGroup: null,
        mccDescription: null,
        idPurchaseEvent: null,
        sourceDestinationName: 'GRAFICA PAULISTA LTDA',
        placeEstablishment: null,
        description: `PIX SOAK ${run}-${i}`,
        notes: '',
        conciliation: { description: 'Not reconciled', conciled: false },
        category: { id: 'SERVICES', description: 'Serviços' },
        costCenter: null,
        user: null,
        requesterUser: null,
        customCategory: null,
      },
    }),
  );
  writeFileSync(path, `${rows.join('\n')}\n`);
  return path;
}

async function main() {
  const data = await prepareDatabase(file, TRANSACTIONS);
  const store = await openStore(file);
  const writesCompany = (
    await store.db
      .selectFrom('companies')
      .select('id')
      .where('name', '=', 'Benchmark HTTP Escrita Ltda')
      .executeTakeFirstOrThrow()
  ).id;
  let account = await store.db
    .selectFrom('accounts')
    .select('id')
    .where('company_id', '=', writesCompany)
    .orderBy('id')
    .executeTakeFirst();
  if (!account) {
    account = await store.db
      .insertInto('accounts')
      .values({
        company_id: writesCompany,
        name: 'Conta Soak',
        bank_code: '341',
        bank_name: 'Itaú',
        branch: '0001',
        number: '12345-6',
        currency: 'BRL',
        opening_balance_minor: 0,
        balance_minor: 0,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
  }
  await store.db.destroy();

  const hooks = await receiver();
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    // `--db postgres://…`: the sandbox there only on purpose.
    ...(isPostgresUrl(file) ? { SANDBOX: 'true' } : {}),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    DATA_DIR: join(dir, 'files'),
  };
  // The server as production runs it: the compiled `dist/`, rebuilt first.
  buildServer();
  const [bin, ...args] = [process.execPath, 'bin/finance.js', 'serve', '--db', file, '--port', String(PORT)];
  const server = spawn(bin!, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${PORT}`;
  try {
    await ready(server);
    const auth = (token: string, json = false) => ({
      Authorization: `Bearer ${token}`,
      ...(json ? { 'Content-Type': 'application/json' } : {}),
    });
    const hook = await fetch(`${base}/webhooks/v1/endpoints`, {
      method: 'POST',
      headers: auth(data.writesToken, true),
      body: JSON.stringify({ url: `http://127.0.0.1:${hooks.port}/hooks`, enabledEvents: ['*'] }),
    });
    if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status} ${await hook.text()}`);

    let serial = 0;
    const ops: Op[] = [
      {
        name: 'banking list',
        weight: 30,
        expect: 200,
        send: (b) => fetch(`${b}/statements/v1/banking?limit=50`, { headers: auth(data.token) }),
      },
      {
        name: 'banking by amount',
        weight: 10,
        expect: 200,
        send: (b) => fetch(`${b}/statements/v1/banking?limit=5&sorting=brlAmount:desc`, { headers: auth(data.token) }),
      },
      {
        name: 'cost centers',
        weight: 10,
        expect: 200,
        send: (b) => fetch(`${b}/cost-centers/v1/cost-centers`, { headers: auth(data.token) }),
      },
      {
        name: 'user',
        weight: 10,
        expect: 200,
        send: (b) => fetch(`${b}/users/v1/users/${data.userId}`, { headers: auth(data.token) }),
      },
      {
        name: 'cost center create',
        weight: 15,
        expect: 201,
        send: (b) =>
          fetch(`${b}/cost-centers/v1/cost-centers`, {
            method: 'POST',
            headers: auth(data.writesToken, true),
            body: JSON.stringify({ name: `Soak ${process.pid} ${(serial += 1)}` }),
          }),
      },
      {
        name: 'sandbox banking',
        weight: 10,
        expect: 201,
        send: (b) =>
          fetch(`${b}/sandbox/v1/banking-transactions`, {
            method: 'POST',
            headers: auth(data.writesToken, true),
            body: JSON.stringify({ brlAmount: 150.25, description: 'PIX soak' }),
          }),
      },
      {
        name: 'sandbox card',
        weight: 5,
        expect: 201,
        send: (b) =>
          fetch(`${b}/sandbox/v1/credit-card-transactions`, {
            method: 'POST',
            headers: auth(data.writesToken, true),
            body: JSON.stringify({ amount: 42.5 }),
          }),
      },
      {
        name: 'export csv',
        weight: 2,
        expect: 200,
        send: (b) => fetch(`${b}/statements/v1/exports/banking?format=csv`, { headers: auth(data.token) }),
      },
    ];
    const wheel = ops.flatMap((op) => Array.from({ length: op.weight }, () => op));

    interface Minute {
      requests: number;
      errors: number;
      latencies: number[];
      byOp: Record<string, number>;
    }
    const minutes: Minute[] = [];
    const memory: Array<{ at: number; rss: number; heap: number }> = [];
    const errorsSeen: string[] = [];
    const errorKinds = new Map<string, number>();
    /** Keeps the first three errors of each operation, for the report. */
    const seen = (kind: string, text: string) => {
      const n = errorKinds.get(kind) ?? 0;
      errorKinds.set(kind, n + 1);
      if (n < 3) errorsSeen.push(text);
    };
    const started = Date.now();
    const end = started + MINUTES * 60_000;
    const minuteOf = () => Math.floor((Date.now() - started) / 60_000);
    const slot = (m: number) => (minutes[m] ??= { requests: 0, errors: 0, latencies: [], byOp: {} });

    const sendOne = async (op: Op) => {
      const t0 = performance.now();
      const m = minuteOf();
      try {
        const res = await op.send(base);
        await res.arrayBuffer();
        const s = slot(m);
        s.requests += 1;
        s.latencies.push(performance.now() - t0);
        if (res.status !== op.expect) {
          s.errors += 1;
          s.byOp[op.name] = (s.byOp[op.name] ?? 0) + 1;
          seen(op.name, `${op.name}: ${res.status}`);
        }
      } catch (err) {
        const s = slot(m);
        s.requests += 1;
        s.errors += 1;
        seen(op.name, `${op.name}: ${(err as Error).message}`);
      }
    };

    const inFlight = new Set<Promise<void>>();
    const sample = async () => {
      try {
        memory.push({ at: Date.now() - started, ...(await memoryOf(server.pid!, base)) });
      } catch {
        // a sample missed; the next one counts
      }
    };
    const sampler = setInterval(() => void sample(), 10_000);
    await sample();

    let ingests = 0;
    let ingestFailures = 0;
    let nextIngest = started + 60_000;
    const ingest = () =>
      new Promise<void>((resolve) => {
        ingests += 1;
        const path = ingestFile(account!.id, ingests);
        const child = spawn(
          NODE[0]!,
          [...NODE.slice(1), 'server/cli/main.ts', 'ingest', '--db', file, '--company', writesCompany, '--file', path],
          { env, stdio: ['ignore', 'ignore', 'pipe'] },
        );
        let stderr = '';
        child.stderr?.on('data', (d) => (stderr += String(d)));
        child.on('exit', (code) => {
          if (code !== 0) {
            ingestFailures += 1;
            seen('ingest', `ingest: exit ${code} ${stderr.slice(0, 300)}`);
          }
          resolve();
        });
      });
    const ingests$: Array<Promise<void>> = [];

    process.stderr.write(
      `soak: ${MINUTES} min at ${RATE} req/s against ${base} (pid ${server.pid}); webhooks to :${hooks.port}\n`,
    );
    const interval = 1000 / RATE;
    let next = performance.now();
    let i = 0;
    let lastReported = -1;
    while (Date.now() < end) {
      if (Date.now() >= nextIngest) {
        ingests$.push(ingest());
        nextIngest += INGEST_EVERY_MIN * 60_000;
      }
      const op = wheel[i % wheel.length]!;
      i += 1;
      const p = sendOne(op).finally(() => inFlight.delete(p));
      inFlight.add(p);
      next += interval;
      const wait = next - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const m = minuteOf();
      if (m > lastReported + 1 && !JSON_OUT) {
        const done = minutes[m - 1];
        const mem = memory.at(-1);
        if (done)
          process.stderr.write(
            `minute ${m}: ${done.requests} requests, ${done.errors} errors, p99 ${p99(done.latencies).toFixed(1)} ms, rss ${mem?.rss.toFixed(1)} MB, heap ${mem?.heap.toFixed(1)} MB\n`,
          );
        lastReported = m - 1;
      }
    }
    await Promise.all(inFlight);
    await Promise.all(ingests$);
    clearInterval(sampler);
    await sample();
    // Deliveries still queued when the load stops are given a few seconds to arrive.
    await new Promise((r) => setTimeout(r, 5_000));

    const rows = minutes.map((m, index) => {
      const upTo = (index + 1) * 60_000;
      const mem = [...memory].reverse().find((s) => s.at <= upTo) ?? memory.at(-1);
      return {
        minute: index + 1,
        requests: m?.requests ?? 0,
        errors: m?.errors ?? 0,
        p99Ms: Number(p99(m?.latencies ?? []).toFixed(1)),
        rssMb: Number(mem?.rss.toFixed(1)),
        heapMb: Number(mem?.heap.toFixed(1)),
      };
    });
    const half = (MINUTES * 60_000) / 2;
    const second = memory.filter((s) => s.at >= half);
    const hours = (ms: number) => ms / 3_600_000;
    const result = {
      minutes: MINUTES,
      rate: RATE,
      requests: rows.reduce((s, r) => s + r.requests, 0),
      errors: rows.reduce((s, r) => s + r.errors, 0),
      ingests,
      ingestFailures,
      webhookDeliveries: hooks.count(),
      rssSlopeMbPerHour: Number(slope(second.map((s) => [hours(s.at), s.rss])).toFixed(1)),
      heapSlopeMbPerHour: Number(slope(second.map((s) => [hours(s.at), s.heap])).toFixed(1)),
      rssMb: { first: memory[0]?.rss, last: memory.at(-1)?.rss, max: Math.max(...memory.map((s) => s.rss)) },
      heapMb: { first: memory[0]?.heap, last: memory.at(-1)?.heap, max: Math.max(...memory.map((s) => s.heap)) },
      perMinute: rows,
      memory: memory.map((s) => ({
        atS: Math.round(s.at / 1000),
        rssMb: Number(s.rss.toFixed(1)),
        heapMb: Number(s.heap.toFixed(1)),
      })),
      firstErrors: errorsSeen,
      serverAlive: server.exitCode === null,
    };
    if (JSON_OUT) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
    const out = [
      line(['minute', 'requests', 'errors', 'p99 ms', 'RSS MB', 'heap MB']),
      line(['---:', '---:', '---:', '---:', '---:', '---:']),
      ...rows.map((r) => line([r.minute, r.requests, r.errors, r.p99Ms, r.rssMb, r.heapMb])),
      '',
      `requests ${result.requests}, errors ${result.errors}, ingests ${ingests} (${ingestFailures} failed), webhook deliveries received ${result.webhookDeliveries}`,
      `RSS ${result.rssMb.first?.toFixed(1)} → ${result.rssMb.last?.toFixed(1)} MB (max ${result.rssMb.max.toFixed(1)}), slope over the second half ${result.rssSlopeMbPerHour} MB/hour`,
      `heap ${result.heapMb.first?.toFixed(1)} → ${result.heapMb.last?.toFixed(1)} MB (max ${result.heapMb.max.toFixed(1)}), slope over the second half ${result.heapSlopeMbPerHour} MB/hour`,
      ...(errorsSeen.length ? ['first errors:', ...errorsSeen.map((e) => `  ${e}`)] : []),
      `server alive at the end: ${result.serverAlive}`,
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await new Promise<void>((resolve) => {
      if (server.exitCode !== null) return resolve();
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
      setTimeout(() => server.kill('SIGKILL'), 15_000).unref();
    });
    hooks.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
