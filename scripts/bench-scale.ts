// Benchmark of scaling out (not a test): throughput of GET /statements/v1/banking and PATCH
// /statements/v1/banking/{id} at 50 concurrent connections, for SQLite and PostgreSQL, with 1 and 2
// workers (`finance serve --workers N`), as ratios to SQLite with 1 worker measured in the same run.
// The load generator shares the machine with the server, so absolute numbers understate; ratios
// are the point. Each cell also counts non-2xx answers (there must be none).
// Usage: npm run bench:scale [-- --seconds 10 --connections 50 --rows 20000 --pg postgres://postgres@127.0.0.1:5432/postgres]
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '../server/db/store.js';
import { ALL_SCOPES, createClient, createCompany } from '../server/areas/auth/store.js';
import { seedCompany } from '../server/cli/seed.js';
import { systemClock } from '../server/lib/clock.js';
import { BENCH_SECRETS } from './bench-http/setup.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const SECONDS = Number(arg('seconds', '10'));
const CONNECTIONS = Number(arg('connections', '50'));
const ROWS = Number(arg('rows', '20000'));
const PG_ADMIN = arg('pg', 'postgres://postgres@127.0.0.1:5432/postgres');

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

async function prepare(location: string) {
  const db = (await openStore(location)).db;
  const companyId = await createCompany(db, systemClock, { name: 'Benchmark Escala Ltda' });
  const client = await createClient(db, systemClock, { companyId, scopes: ALL_SCOPES });
  await seedCompany(db, { companyId, transactions: ROWS, seed: 7, clock: systemClock });
  const ids = (
    await db
      .selectFrom('banking_transactions')
      .select('id')
      .where('company_id', '=', companyId)
      .orderBy('id')
      .limit(2_000)
      .execute()
  ).map((r) => r.id);
  await db.destroy();
  return { ...client, ids };
}

async function start(location: string, workers: number): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(
    'node',
    ['bin/finance.js', 'serve', '--db', location, '--port', String(port), '--workers', String(workers)],
    {
      env: { ...process.env, ...BENCH_SECRETS, NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Token URL')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { child, port };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

async function token(port: number, clientId: string, clientSecret: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** `CONNECTIONS` keep-alive loops for `SECONDS`; requests per second and non-2xx count. */
async function drive(
  port: number,
  make: (n: number) => { method: string; path: string; body?: string },
  bearer: string,
) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const end = Date.now() + SECONDS * 1000;
  let done = 0;
  let failed = 0;
  const one = (n: number) =>
    new Promise<void>((resolve) => {
      const { method, path, body } = make(n);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method,
          agent,
          headers: {
            Authorization: `Bearer ${bearer}`,
            ...(body ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if ((res.statusCode ?? 0) >= 300) failed += 1;
            done += 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        failed += 1;
        resolve();
      });
      req.end(body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, c) => {
      for (let n = c; Date.now() < end; n += CONNECTIONS) await one(n);
    }),
  );
  agent.destroy();
  return { rps: done / ((performance.now() - started) / 1000), failed };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const pgName = `finance_bench_scale_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`create database ${pgName} template template0 lc_collate 'C.UTF-8' lc_ctype 'C.UTF-8'`);
  const pgUrl = Object.assign(new URL(PG_ADMIN), { pathname: `/${pgName}` }).toString();
  const stores = [
    ['SQLite', join(dir, 'bench.sqlite')],
    ['PostgreSQL', pgUrl],
  ] as const;
  const results: Array<{ store: string; workers: number; get: number; patch: number; failed: number }> = [];
  try {
    for (const [store, location] of stores) {
      process.stderr.write(`${store}: seeding ${ROWS} banking rows…\n`);
      const { clientId, clientSecret, ids } = await prepare(location);
      for (const workers of [1, 2]) {
        const server = await start(location, workers);
        try {
          const bearer = await token(server.port, clientId, clientSecret);
          await drive(server.port, () => ({ method: 'GET', path: '/statements/v1/banking?limit=20' }), bearer); // warm-up
          const get = await drive(
            server.port,
            (n) => ({
              method: 'GET',
              path: `/statements/v1/banking?limit=20${n % 2 ? '&sorting=brlAmount:desc' : ''}`,
            }),
            bearer,
          );
          const patch = await drive(
            server.port,
            (n) => ({
              method: 'PATCH',
              path: `/statements/v1/banking/${ids[n % ids.length]}`,
              body: JSON.stringify({ notes: `bench ${n}` }),
            }),
            bearer,
          );
          results.push({ store, workers, get: get.rps, patch: patch.rps, failed: get.failed + patch.failed });
          process.stderr.write(
            `  ${workers} worker(s): GET ${get.rps.toFixed(0)}/s, PATCH ${patch.rps.toFixed(0)}/s, non-2xx ${get.failed + patch.failed}\n`,
          );
        } finally {
          await stop(server.child);
        }
      }
    }
  } finally {
    await admin.query(`drop database if exists ${pgName} with (force)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
  const base = results[0]!;
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(
    `\n${CONNECTIONS} connections, ${SECONDS} s per cell, ${ROWS.toLocaleString('en')} banking rows; ratios to SQLite with 1 worker\n`,
  );
  console.log(line(['store', 'workers', 'GET banking req/s', 'ratio', 'PATCH banking req/s', 'ratio', 'non-2xx']));
  console.log(line(['---', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const r of results) {
    console.log(
      line([
        r.store,
        String(r.workers),
        r.get.toFixed(0),
        (r.get / base.get).toFixed(2),
        r.patch.toFixed(0),
        (r.patch / base.patch).toFixed(2),
        String(r.failed),
      ]),
    );
  }
}

await main();
