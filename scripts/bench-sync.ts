// Benchmark of the change feed and of conditional GETs, on a company with 100,000 banking
// transactions (the real server in a child process, production settings, rate limit off):
//  1. catching up after 1 % of the statement changed (notes PATCHed on 1,000 transactions): through
//     the change feed (`finance.sync.bankingTransactions(cursor)`, from the cursor of the initial
//     sync) vs re-paging the whole list with the client (`finance.paginate.bankingTransactions`, 50 a
//     page: what an integrator does without the feed). Requests, response bytes and seconds, as
//     ratios of the feed to re-paging (medians of the rounds; both read the same changed statement).
//  2. the banking page (`GET /statements/v1/banking?limit=20`) answered 200 vs answered 304 (the
//     same request with `If-None-Match: <its current ETag>`), autocannon, same connection count,
//     interleaved rounds; req/s and the 304's ratio to the 200's.
// Bars (issue 30): catch-up bytes ≤ 5 % of re-paging; the 304 ≥ 3× the req/s of the 200.
// Usage: npm run bench:sync [-- --rounds 3 --duration 5 --connections 10 --transactions 100000 --db FILE --json]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import autocannon from 'autocannon';
import { createFinanceClient, type FinanceClient } from '../client/index.js';
import { openStore } from '../server/db/store.js';
import { systemClock } from '../server/lib/clock.js';
import { createClient } from '../server/areas/auth/store.js';
import { BENCH_SECRETS, COMPANY, prepareDatabase } from './bench-http/setup.js';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.indexOf(`--${name}`) >= 0 ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const ROUNDS = Number(option('rounds') ?? 3);
const DURATION = Number(option('duration') ?? 5);
const CONNECTIONS = Number(option('connections') ?? 10);
const TRANSACTIONS = Number(option('transactions') ?? 100_000);
const CHANGED_SHARE = 0.01;
const PAGE = '/statements/v1/banking?limit=20';

const pinned = spawnSync('taskset', ['--version']).status === 0;
/** A port nobody listens on now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** What a client sent and received: every request through its fetch, response bodies in bytes. */
class Meter {
  requests = 0;
  bytes = 0;
  readonly fetch = async (request: Request): Promise<Response> => {
    const response = await globalThis.fetch(request);
    const body = new Uint8Array(await response.arrayBuffer());
    this.requests += 1;
    this.bytes += body.byteLength;
    const empty = response.status === 204 || response.status === 304;
    return new Response(empty ? null : body, { status: response.status, headers: response.headers });
  };
}

interface Cost {
  requests: number;
  bytes: number;
  seconds: number;
  rows: number;
}

async function measure(meter: Meter, work: () => Promise<number>): Promise<Cost> {
  const [requests, bytes] = [meter.requests, meter.bytes];
  const started = performance.now();
  const rows = await work();
  return {
    requests: meter.requests - requests,
    bytes: meter.bytes - bytes,
    seconds: (performance.now() - started) / 1000,
    rows,
  };
}

async function rate(baseUrl: string, token: string, etag: string | undefined) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (etag) headers['if-none-match'] = etag;
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ method: 'GET', path: PAGE, headers }],
  } as autocannon.Options);
  const answered = etag ? result['3xx'] : result['2xx'];
  if (answered !== result.requests.total)
    throw new Error(`expected only ${etag ? 304 : 200}s, got ${JSON.stringify(result.statusCodeStats)}`);
  return answered / (result.duration || DURATION);
}

async function main() {
  const keep = option('db');
  const dir = mkdtempSync(join(tmpdir(), 'bench-sync-'));
  const file = keep ?? join(dir, 'bench.sqlite');
  await prepareDatabase(file, TRANSACTIONS);
  const { db } = await openStore(file);
  const company = await db.selectFrom('companies').select('id').where('name', '=', COMPANY).executeTakeFirstOrThrow();
  const credentials = await createClient(db, systemClock, {
    companyId: company.id,
    scopes: ['statements:read', 'statements:write'],
  });
  await db.destroy();
  const PORT = await freePort();
  const command = [
    process.execPath,
    '--import',
    'tsx',
    'server/cli/main.ts',
    'serve',
    '--db',
    file,
    '--port',
    String(PORT),
  ];
  const [bin, ...args] = pinned ? ['taskset', '-c', '0', ...command] : command;
  const child = spawn(bin!, args, {
    env: {
      ...process.env,
      ...BENCH_SECRETS,
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: dir,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${PORT}`;
  try {
    for (let i = 0; ; i += 1) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (
        await fetch(`${baseUrl}/health`).then(
          () => true,
          () => false,
        )
      )
        break;
      if (i > 600) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const meter = new Meter();
    const finance: FinanceClient = createFinanceClient({ baseUrl, ...credentials, fetch: meter.fetch });

    // The integrator's state before the changes: the initial sync's cursor.
    const initial = await measure(
      meter,
      async () => (await finance.sync.bankingTransactions(undefined, { limit: 500 })).added.length,
    );
    const { nextCursor } = await finance.sync.bankingTransactions(undefined, { limit: 500 });
    // 1 % of the statement changes: notes on evenly spread transactions, 10 at a time.
    const ids: number[] = [];
    for await (const t of finance.paginate.bankingTransactions({ limit: 50 })) ids.push(t.id);
    const changed = ids.filter((_, i) => i % Math.round(1 / CHANGED_SHARE) === 0);
    // Notes of this run (a reused database holds the last run's: writing those again changes nothing).
    const run = Date.now().toString(36);
    for (let i = 0; i < changed.length; i += 10)
      await Promise.all(
        changed.slice(i, i + 10).map((transactionId, k) =>
          finance.PATCH('/statements/v1/banking/{transactionId}', {
            params: { path: { transactionId } },
            body: { notes: `bench change ${run} ${i + k}` },
          }),
        ),
      );

    const cases = {
      feed: () =>
        measure(meter, async () => {
          const { added, modified } = await finance.sync.bankingTransactions(nextCursor, { limit: 500 });
          return added.length + modified.length;
        }),
      repaging: () =>
        measure(meter, async () => {
          let rows = 0;
          for await (const _ of finance.paginate.bankingTransactions({ limit: 50 })) rows += 1;
          return rows;
        }),
    };
    const samples: Record<keyof typeof cases, Cost[]> = { feed: [], repaging: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = (round % 2 === 0 ? ['feed', 'repaging'] : ['repaging', 'feed']) as Array<keyof typeof cases>;
      for (const name of order) samples[name].push(await cases[name]());
    }
    const med = (name: keyof typeof cases) => ({
      requests: samples[name][0]!.requests,
      bytes: samples[name][0]!.bytes,
      rows: samples[name][0]!.rows,
      seconds: Number(median(samples[name].map((s) => s.seconds)).toFixed(3)),
    });
    const feed = med('feed');
    const repaging = med('repaging');

    // 200 vs 304 on the banking page, interleaved.
    const access = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const first = await fetch(baseUrl + PAGE, { headers: { Authorization: `Bearer ${access.access_token}` } });
    const etag = first.headers.get('etag');
    if (!etag) throw new Error('the banking page has no ETag');
    await rate(baseUrl, access.access_token, undefined);
    await rate(baseUrl, access.access_token, etag);
    const ok: number[] = [];
    const notModified: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      ok.push(await rate(baseUrl, access.access_token, undefined));
      notModified.push(await rate(baseUrl, access.access_token, etag));
    }
    const result = {
      transactions: TRANSACTIONS,
      changed: changed.length,
      rounds: ROUNDS,
      initialSync: {
        requests: initial.requests,
        bytes: initial.bytes,
        seconds: Number(initial.seconds.toFixed(3)),
        rows: initial.rows,
      },
      catchUp: {
        feed,
        repaging,
        ratios: {
          requests: Number((feed.requests / repaging.requests).toFixed(4)),
          bytes: Number((feed.bytes / repaging.bytes).toFixed(4)),
          seconds: Number((feed.seconds / repaging.seconds).toFixed(4)),
        },
      },
      bankingPage: {
        connections: CONNECTIONS,
        rps200: Math.round(median(ok)),
        rps304: Math.round(median(notModified)),
        ratio: Number((median(notModified) / median(ok)).toFixed(2)),
      },
    };
    if (argv.includes('--json')) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    const c = result.catchUp;
    const p = result.bankingPage;
    process.stdout.write(
      `\n${TRANSACTIONS} banking transactions, ${changed.length} changed; medians of ${ROUNDS} rounds\n\n` +
        '| catching up | requests | bytes | seconds | rows |\n|---|---:|---:|---:|---:|\n' +
        `| change feed (limit 500) | ${c.feed.requests} | ${c.feed.bytes} | ${c.feed.seconds} | ${c.feed.rows} |\n` +
        `| re-paging the list (50 a page) | ${c.repaging.requests} | ${c.repaging.bytes} | ${c.repaging.seconds} | ${c.repaging.rows} |\n` +
        `| feed ÷ re-paging | ${c.ratios.requests} | ${c.ratios.bytes} | ${c.ratios.seconds} | |\n\n` +
        `| GET ${PAGE}, ${p.connections} connections | req/s |\n|---|---:|\n` +
        `| 200 | ${p.rps200} |\n| 304 (If-None-Match) | ${p.rps304} |\n| 304 ÷ 200 | ${p.ratio} |\n` +
        `\n(initial sync: ${result.initialSync.requests} requests, ${result.initialSync.bytes} bytes, ${result.initialSync.seconds} s)\n`,
    );
  } finally {
    child.kill('SIGTERM');
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
