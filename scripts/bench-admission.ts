// Benchmark of admission control (not a test): one `finance serve` (production settings, compiled
// `dist/`, rebuilt first) under a load its store cannot keep up with, without a cap on the requests in
// flight and with OVERLOAD_MAX_IN_FLIGHT, in the same run. The store is PostgreSQL behind a proxy
// that holds each of its answers for --delay ms (a loaded or distant database: every query then costs
// at least that, so the pool of PG_POOL_SIZE connections is what limits the server, not its CPU);
// nothing is kept between requests (PG_KEEP_VERSION_MS=0, ANSWER_CACHE_MB=0), so every request reads
// the store. --clients keep-alive clients each ask GET /statements/v1/banking?limit=20 in a loop and,
// on a 503, wait its Retry-After before asking again, as the typed client does. Reported per server:
// the admitted (2xx) answers per second and their p50/p99 time, the 503s per second and their p50
// time, and the capped server's figures as ratios to the uncapped one's. Lag shedding
// (OVERLOAD_MAX_LAG_MS, 100 in production) is on in both.
// Usage: npm run bench:admission [-- --seconds 20 --clients 400 --delay 20 --cap 64 --rounds 1
//        --pg postgres://postgres@127.0.0.1:5432/postgres]
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect, createServer, type Server } from 'node:net';
import pg from 'pg';
import { openStore } from '../server/db/store.js';
import { ALL_SCOPES, createClient, createCompany } from '../server/areas/auth/store.js';
import { seedCompany } from '../server/cli/seed.js';
import { systemClock } from '../server/lib/clock.js';
import { BENCH_SECRETS, ready } from './bench-http/setup.js';
import { buildServer } from './bench-http/compiled.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const SECONDS = Number(arg('seconds', '20'));
const WARMUP_SECONDS = 3;
const CLIENTS = Number(arg('clients', '400'));
const DELAY_MS = Number(arg('delay', '20'));
const CAP = Number(arg('cap', '64'));
const ROUNDS = Number(arg('rounds', '1'));
const PG_ADMIN = arg('pg', 'postgres://postgres@127.0.0.1:5432/postgres');
const PATH = '/statements/v1/banking?limit=20';

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/**
 * A TCP proxy to `port` that holds every chunk the target sends for `delayMs`. One timer per
 * connection releases the chunks in their order (timers of different durations may fire out of it).
 */
async function delayingProxy(port: number, delayMs: number): Promise<{ port: number; server: Server }> {
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    client.pipe(upstream);
    const held: Array<{ at: number; chunk?: Buffer }> = [];
    let scheduled = false;
    const release = () => {
      scheduled = false;
      while (held.length > 0 && held[0]!.at <= Date.now()) {
        const { chunk } = held.shift()!;
        if (chunk) client.write(chunk);
        else client.destroy();
      }
      if (held.length > 0) {
        scheduled = true;
        setTimeout(release, held[0]!.at - Date.now());
      }
    };
    const hold = (chunk?: Buffer) => {
      held.push({ at: Date.now() + delayMs, chunk });
      if (!scheduled) {
        scheduled = true;
        setTimeout(release, delayMs);
      }
    };
    upstream.on('data', (chunk: Buffer) => hold(chunk));
    upstream.on('close', () => hold());
    client.on('close', () => upstream.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

async function start(location: string, cap: number): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn('node', ['bin/finance.js', 'serve', '--db', location, '--port', String(port)], {
    env: {
      ...process.env,
      ...BENCH_SECRETS,
      NODE_ENV: 'production',
      LOG_LEVEL: 'error',
      RATE_LIMIT_PER_MINUTE: '0',
      PG_KEEP_VERSION_MS: '0',
      ANSWER_CACHE_MB: '0',
      PG_POOL_SIZE: '10',
      OVERLOAD_MAX_IN_FLIGHT: String(cap),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await ready({ name: `serve (cap ${cap})`, port, child });
  return { child, port };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

interface Sample {
  status: number;
  ms: number;
}

/** `CLIENTS` closed loops for the warm-up and `SECONDS`; the answers after the warm-up. */
async function drive(port: number, bearer: string): Promise<Sample[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const measureFrom = Date.now() + WARMUP_SECONDS * 1000;
  const end = measureFrom + SECONDS * 1000;
  const samples: Sample[] = [];
  const one = () =>
    new Promise<{ status: number; retryAfter: number }>((resolve) => {
      const started = performance.now();
      let settled = false;
      /** Status 0: no whole answer (an error, a cut connection, or none within a minute). */
      const settle = (status: number, retryAfter: number) => {
        if (settled) return;
        settled = true;
        if (Date.now() >= measureFrom) samples.push({ status, ms: performance.now() - started });
        resolve({ status, retryAfter });
      };
      const req = request(
        { host: '127.0.0.1', port, path: PATH, agent, headers: { Authorization: `Bearer ${bearer}` } },
        (res) => {
          res.resume();
          res.on('end', () => settle(res.statusCode ?? 0, Number(res.headers['retry-after'] ?? 0)));
          res.on('close', () => settle(0, 1));
        },
      );
      req.setTimeout(60_000, () => req.destroy());
      req.on('error', () => settle(0, 1));
      req.end();
    });
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const { status, retryAfter } = await one();
        if (status === 503 || status === 0) await new Promise((r) => setTimeout(r, retryAfter * 1000));
      }
    }),
  );
  agent.destroy();
  return samples;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function figures(samples: Sample[], seconds: number) {
  const admitted = samples.filter((s) => s.status >= 200 && s.status < 300).map((s) => s.ms);
  const refused = samples.filter((s) => s.status === 503).map((s) => s.ms);
  admitted.sort((a, b) => a - b);
  refused.sort((a, b) => a - b);
  return {
    admittedPerSecond: admitted.length / seconds,
    p50: percentile(admitted, 50),
    p99: percentile(admitted, 99),
    refusedPerSecond: refused.length / seconds,
    refusedP50: percentile(refused, 50),
    other: samples.length - admitted.length - refused.length,
  };
}

async function main() {
  process.stderr.write('building dist/…\n');
  buildServer();
  const pgName = `finance_bench_admission_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`create database ${pgName} template template0 lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8'`);
  const direct = new URL(PG_ADMIN);
  const proxy = await delayingProxy(Number(direct.port || 5432), DELAY_MS);
  const url = (port: string) => Object.assign(new URL(PG_ADMIN), { pathname: `/${pgName}`, port }).toString();
  try {
    const db = (await openStore(url(direct.port || '5432'))).db;
    const companyId = await createCompany(db, systemClock, { name: 'Benchmark Admissão Ltda' });
    const client = await createClient(db, systemClock, { companyId, scopes: ALL_SCOPES });
    await seedCompany(db, { companyId, transactions: 2_000, seed: 3, clock: systemClock });
    await db.destroy();
    const samples = new Map<number, Sample[]>([
      [0, []],
      [CAP, []],
    ]);
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const cap of [0, CAP]) {
        const server = await start(url(String(proxy.port)), cap);
        try {
          const res = await fetch(`http://127.0.0.1:${server.port}/oauth/token`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'client_credentials',
              client_id: client.clientId,
              client_secret: client.clientSecret,
            }),
          });
          const { access_token: bearer } = (await res.json()) as { access_token: string };
          process.stderr.write(`round ${round}, OVERLOAD_MAX_IN_FLIGHT=${cap}: ${CLIENTS} clients for ${SECONDS} s…\n`);
          samples.get(cap)!.push(...(await drive(server.port, bearer)));
        } finally {
          await stop(server.child);
        }
      }
    }
    const seconds = SECONDS * ROUNDS;
    const base = figures(samples.get(0)!, seconds);
    const capped = figures(samples.get(CAP)!, seconds);
    const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—');
    const ms = (n: number) => (Number.isNaN(n) ? '—' : n.toFixed(0));
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    console.log(
      `\n${CLIENTS} clients, ${SECONDS} s × ${ROUNDS} per server, store answers held ${DELAY_MS} ms, PG_POOL_SIZE 10; GET ${PATH}\n`,
    );
    console.log(
      line(['server', 'admitted/s', 'admitted p50 ms', 'admitted p99 ms', '503/s', '503 p50 ms', 'other answers']),
    );
    console.log(line(['---', '---:', '---:', '---:', '---:', '---:', '---:']));
    for (const [name, f] of [
      ['no cap', base],
      [`OVERLOAD_MAX_IN_FLIGHT=${CAP}`, capped],
    ] as const)
      console.log(
        line([
          name,
          f.admittedPerSecond.toFixed(0),
          ms(f.p50),
          ms(f.p99),
          f.refusedPerSecond.toFixed(0),
          ms(f.refusedP50),
          String(f.other),
        ]),
      );
    console.log(
      line([
        'capped ÷ no cap',
        ratio(capped.admittedPerSecond, base.admittedPerSecond),
        ratio(capped.p50, base.p50),
        ratio(capped.p99, base.p99),
        '',
        '',
        '',
      ]),
    );
  } finally {
    proxy.server.close();
    await admin.query(`drop database if exists ${pgName} with (force)`);
    await admin.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
