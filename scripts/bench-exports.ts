// Benchmark of statement exports: on a company with 100,000 banking transactions, the real server
// (a child process, production settings, rate limit off) exports the whole statement as CSV and as
// OFX, read by the package's client at full speed; the baseline is the same client paging the list
// (`finance.paginate.bankingTransactions`, 50 rows a page: what an integrator does without exports).
// Reported per case, as medians of the rounds: rows/s and its ratio to paging, time to first byte,
// and the growth of the server's resident memory (RSS, sampled every 20 ms from /proc) over its RSS
// before the case.
// Usage: npm run bench:exports [-- --rounds 3 --transactions 100000 --db FILE --json]
// With --db, the seeded database is kept in FILE and reused by the next run.
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFinanceClient, type FinanceClient } from '../client/index.js';
import { openStore } from '../server/db/store.js';
import { systemClock } from '../server/lib/clock.js';
import { createClient } from '../server/areas/auth/store.js';
import { BENCH_SECRETS, COMPANY, prepareDatabase } from './bench-http/setup.js';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.indexOf(`--${name}`) >= 0 ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const ROUNDS = Number(option('rounds') ?? 3);
const TRANSACTIONS = Number(option('transactions') ?? 100_000);
const PORT = 48_151;

interface Sample {
  rows: number;
  seconds: number;
  firstByteMs: number;
  rssGrowthMb: number;
}

/** The server's resident memory in MB (Linux). */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Runs `work` while sampling the server's RSS; answers the peak growth over the RSS before it. */
async function measured(pid: number, work: () => Promise<{ rows: number; firstByteMs: number }>): Promise<Sample> {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 20);
  const started = performance.now();
  try {
    const { rows, firstByteMs } = await work();
    return { rows, firstByteMs, seconds: (performance.now() - started) / 1000, rssGrowthMb: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

async function paging(finance: FinanceClient) {
  const started = performance.now();
  let firstByteMs = 0;
  let rows = 0;
  for await (const _ of finance.paginate.bankingTransactions({ limit: 50 })) {
    if (rows === 0) firstByteMs = performance.now() - started;
    rows += 1;
  }
  return { rows, firstByteMs };
}

async function exported(finance: FinanceClient, format: 'csv' | 'ofx') {
  const started = performance.now();
  const body = await finance.exports.banking({ format });
  const reader = body.getReader();
  let firstByteMs = 0;
  let rows = 0;
  const marker = format === 'csv' ? 0x0a : 0x3c; // line ends; `<` (counted below per STMTTRN)
  const tail = new TextDecoder();
  let carry = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstByteMs === 0) firstByteMs = performance.now() - started;
    if (format === 'csv') {
      for (const byte of value) if (byte === marker) rows += 1;
    } else {
      const chunk = carry + tail.decode(value, { stream: true });
      rows += chunk.split('<STMTTRN>').length - 1;
      carry = chunk.slice(-8);
    }
  }
  return { rows: format === 'csv' ? rows - 1 : rows, firstByteMs };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const keep = option('db');
  const dir = mkdtempSync(join(tmpdir(), 'bench-exports-'));
  const file = keep ?? join(dir, 'bench.sqlite');
  await prepareDatabase(file, TRANSACTIONS);
  const { db } = await openStore(file);
  const company = await db.selectFrom('companies').select('id').where('name', '=', COMPANY).executeTakeFirstOrThrow();
  const credentials = await createClient(db, systemClock, { companyId: company.id, scopes: ['statements:read'] });
  await db.destroy();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/cli/main.ts', 'serve', '--db', file, '--port', String(PORT)],
    {
      env: {
        ...process.env,
        ...BENCH_SECRETS,
        NODE_ENV: 'production',
        RATE_LIMIT_PER_MINUTE: '0',
        LOG_LEVEL: 'warn',
        DATA_DIR: dir,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
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
    const finance = createFinanceClient({
      baseUrl,
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
    });
    const cases = {
      'list, paged by the client (baseline)': () => paging(finance),
      'export CSV': () => exported(finance, 'csv'),
      'export OFX': () => exported(finance, 'ofx'),
    };
    // A warm-up of each, so the rounds compare warm servers.
    for (const run of Object.values(cases)) await run();
    const samples = new Map<string, Sample[]>(Object.keys(cases).map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      // Rotate the order each round so no case always runs first.
      const order = Object.entries(cases);
      for (let k = 0; k < round % order.length; k += 1) order.push(order.shift()!);
      for (const [name, run] of order) samples.get(name)!.push(await measured(child.pid!, run));
    }
    const summary = [...samples].map(([name, list]) => ({
      case: name,
      rows: list[0]!.rows,
      rowsPerSecond: Math.round(median(list.map((s) => s.rows / s.seconds))),
      firstByteMs: Math.round(median(list.map((s) => s.firstByteMs))),
      rssGrowthMb: Number(median(list.map((s) => s.rssGrowthMb)).toFixed(1)),
    }));
    const baseline = summary[0]!.rowsPerSecond;
    const rows = summary.map((s) => ({ ...s, ratioToPaging: Number((s.rowsPerSecond / baseline).toFixed(2)) }));
    if (argv.includes('--json')) {
      process.stdout.write(`${JSON.stringify({ transactions: TRANSACTIONS, rounds: ROUNDS, cases: rows }, null, 2)}\n`);
    } else {
      process.stdout.write(
        `\nmedians of ${ROUNDS} rounds; ${TRANSACTIONS} banking transactions\n\n` +
          '| case | rows | rows/s | × paging | first byte ms | RSS growth MB |\n|---|---:|---:|---:|---:|---:|\n' +
          rows
            .map(
              (r) =>
                `| ${r.case} | ${r.rows} | ${r.rowsPerSecond} | ${r.ratioToPaging} | ${r.firstByteMs} | ${r.rssGrowthMb} |`,
            )
            .join('\n') +
          '\n',
      );
    }
  } finally {
    child.kill('SIGTERM');
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
