// `npm run bench:pair -- --baseline DIR`: this checkout's server and another's (e.g. `git worktree add
// DIR main`) on the same CPU (0; needs `taskset`) at the same time, each driven by its own autocannon with the same load.
// Both processes are always busy, so the scheduler gives each half of the core and the ratio of the
// requests they answer is the inverse ratio of their cost per request. A slower or busier machine
// slows both alike: on a host whose speed drifts between runs (the same code measured 0.5–1.0× itself
// in consecutive single runs), the ratio stays within about 1 %. Also prints each server's CPU time
// per request. Writes contend for one database file, so the write endpoints' ratios carry more noise.
// Usage: npm run bench:pair -- --baseline DIR [--only "banking page 1,cost centers"] [--rounds 5]
//        [--duration 4] [--connections 10] [--transactions 20000] [--db FILE]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_SECRETS, driveEndpoint, endpoints, prepareDatabase } from './bench-http/setup.js';
import { cpuMs } from './bench-http/tail.js';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.indexOf(`--${name}`) >= 0 ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const BASELINE = option('baseline');
if (!BASELINE) throw new Error('--baseline DIR (another checkout) is required');
const ROUNDS = Number(option('rounds') ?? 5);
const DURATION = Number(option('duration') ?? 4);
const CONNECTIONS = Number(option('connections') ?? 10);
const ONLY = (option('only') ?? 'banking page 1,cost centers,PATCH').split(',');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// The load generators on CPU 1, beside the servers' CPU 0.
spawnSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
const dir = mkdtempSync(join(tmpdir(), 'bench-pair-'));
const file = option('db') ?? join(dir, 'bench.sqlite');
const data = await prepareDatabase(file, Number(option('transactions') ?? 20_000));
const env = {
  ...process.env,
  ...BENCH_SECRETS,
  NODE_ENV: 'production',
  RATE_LIMIT_PER_MINUTE: '0',
  LOG_LEVEL: 'info',
  DATA_DIR: join(dir, 'files'),
};
const servers = [
  { name: 'baseline', source: BASELINE, port: 48_211 },
  { name: 'this checkout', source: process.cwd(), port: 48_212 },
].map((s) => ({
  ...s,
  child: spawn(
    'taskset',
    [
      '-c',
      '0',
      process.execPath,
      '--import',
      'tsx',
      join(s.source, 'server/cli/main.ts'),
      'serve',
      '--db',
      file,
      '--port',
      String(s.port),
    ],
    { env, cwd: s.source, stdio: ['ignore', 'ignore', 'inherit'] },
  ),
}));
try {
  for (const s of servers) {
    for (let i = 0; ; i += 1) {
      try {
        await fetch(`http://127.0.0.1:${s.port}/health`);
        break;
      } catch {
        if (i > 600) throw new Error(`${s.name} did not start`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
  const all = await endpoints(`http://127.0.0.1:${servers[0]!.port}`, data);
  const rows: string[] = [];
  for (const e of all.filter((x) => ONLY.some((o) => x.name.includes(o)))) {
    const token = e.writes ? data.writesToken : data.token;
    const drive = (port: number, seconds: number) => driveEndpoint(port, token, e, CONNECTIONS, seconds);
    await Promise.all(servers.map((s) => drive(s.port, 2)));
    const ratios: number[] = [];
    const costs: number[][] = [[], []];
    for (let round = 0; round < ROUNDS; round += 1) {
      const before = servers.map((s) => cpuMs(s.child.pid!));
      const [base, ours] = await Promise.all(servers.map((s) => drive(s.port, DURATION)));
      servers.forEach((s, i) =>
        costs[i]!.push(((cpuMs(s.child.pid!) - before[i]!) * 1000) / [base, ours][i]!.requests.total),
      );
      if (base!.non2xx + ours!.non2xx > 0) throw new Error(`${e.name}: non-2xx answers`);
      ratios.push(ours!.requests.total / base!.requests.total);
      process.stderr.write(`${e.name} round ${round + 1}: ${ours!.requests.total} / ${base!.requests.total}\n`);
    }
    rows.push(
      `| ${e.name} | ${CONNECTIONS} | ${median(ratios).toFixed(3)} | ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)} | ${median(costs[1]!).toFixed(0)} | ${median(costs[0]!).toFixed(0)} |`,
    );
  }
  process.stdout.write(
    `| endpoint | c | this checkout × baseline | range | CPU µs/request | baseline's |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n\nmedians of ${ROUNDS} rounds of ${DURATION} s, both servers on CPU 0 at once\n`,
  );
} finally {
  for (const s of servers) s.child.kill('SIGTERM');
  if (!option('db')) rmSync(dir, { recursive: true, force: true });
}
