// `npm run bench:pair -- --baseline DIR | --peer duties|fastify|same-work`: this checkout's server and
// another on the same CPU (0; needs `taskset`) at the same time, each driven by its own autocannon with
// the same load. The other is another checkout's server (`--baseline DIR`, e.g. `git worktree add DIR
// main`) or one of `npm run bench`'s same-work peers on this checkout's compiled code (`--peer`:
// `duties` is the Fastify service with a production service's per-request duties, S; `fastify` the bare
// Fastify one, R; `same-work` the obvious Express one, Q), its answers checked equal to ours first.
// Both processes are always busy, so the scheduler gives each half of the core and the ratio of the
// requests they answer is the inverse ratio of their cost per request. A slower or busier machine
// slows both alike: on a host whose speed drifts between runs (the same code measured 0.5–1.0× itself
// in consecutive single runs), the ratio stays within about 1 %. Also prints each server's CPU time
// per request. Every server runs compiled, as production runs it (bench-http/compiled.ts). Writes
// contend for one database file, so the write endpoints' ratios carry more noise.
// Usage: npm run bench:pair -- (--baseline DIR | --peer duties|fastify|same-work)
//        [--only "banking page 1,cost centers"] [--rounds 5] [--duration 4] [--connections 10]
//        [--transactions 20000] [--db FILE]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  driveEndpoint,
  endpoints,
  prepareDatabase,
  productionEnv,
  ready,
  record,
  sameAnswers,
  tokenFor,
} from './bench-http/setup.js';
import { cpuMs } from './bench-http/tail.js';
import { buildServer, compilePeers } from './bench-http/compiled.js';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.indexOf(`--${name}`) >= 0 ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const BASELINE = option('baseline');
const PEER = option('peer');
const PEERS: Record<string, { script: string; args: string[] }> = {
  duties: { script: 'fastify-peer', args: ['duties'] },
  fastify: { script: 'fastify-peer', args: [] },
  'same-work': { script: 'same-work', args: [] },
};
if (!BASELINE === !PEER) throw new Error('give --baseline DIR (another checkout) or --peer duties|fastify|same-work');
if (PEER && !PEERS[PEER]) throw new Error(`--peer: one of ${Object.keys(PEERS).join(', ')}`);
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
const env = { ...process.env, ...productionEnv(dir) };
const onCpu0 = (port: number, command: string[], cwd: string) => ({
  port,
  child: spawn('taskset', ['-c', '0', process.execPath, ...command], {
    env,
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
});
/** A checkout's compiled server (`npm run build:server` there first). */
const serveCheckout = (checkout: string, port: number) => {
  buildServer(checkout);
  return onCpu0(port, [resolve(checkout, 'bin/finance.js'), 'serve', '--db', file, '--port', String(port)], checkout);
};

const ours = { name: 'this checkout', ...serveCheckout(process.cwd(), 48_212) };
const servers = [ours];
try {
  await ready(ours);
  const all = (await endpoints(`http://127.0.0.1:${ours.port}`, data)).filter((x) =>
    ONLY.some((o) => x.name.includes(o)),
  );
  if (BASELINE) {
    const baseline = { name: 'baseline', ...serveCheckout(BASELINE, 48_211) };
    servers.unshift(baseline);
    await ready(baseline);
  } else {
    const recordings = [];
    for (const e of all) recordings.push(await record(`http://127.0.0.1:${ours.port}`, tokenFor(data, e), e));
    const recordFile = join(dir, 'recordings.json');
    writeFileSync(recordFile, JSON.stringify(recordings));
    const { script, args } = PEERS[PEER!]!;
    const path = compilePeers(join(dir, 'compiled'))(script);
    const peer = { name: PEER!, ...onCpu0(48_211, [path, file, '48211', recordFile, ...args], process.cwd()) };
    servers.unshift(peer);
    await ready(peer);
    await sameAnswers(peer, data, all, recordings);
  }
  const rows: string[] = [];
  for (const e of all) {
    const token = tokenFor(data, e);
    const drive = (port: number, seconds: number) => driveEndpoint(port, token, e, CONNECTIONS, seconds);
    await Promise.all(servers.map((s) => drive(s.port, 2)));
    const ratios: number[] = [];
    const costs: number[][] = [[], []];
    for (let round = 0; round < ROUNDS; round += 1) {
      const before = servers.map((s) => cpuMs(s.child.pid!));
      const [base, mine] = await Promise.all(servers.map((s) => drive(s.port, DURATION)));
      servers.forEach((s, i) =>
        costs[i]!.push(((cpuMs(s.child.pid!) - before[i]!) * 1000) / [base, mine][i]!.requests.total),
      );
      if (base!.non2xx + mine!.non2xx > 0) throw new Error(`${e.name}: non-2xx answers`);
      ratios.push(mine!.requests.total / base!.requests.total);
      process.stderr.write(`${e.name} round ${round + 1}: ${mine!.requests.total} / ${base!.requests.total}\n`);
    }
    rows.push(
      `| ${e.name} | ${CONNECTIONS} | ${median(ratios).toFixed(3)} | ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)} | ${median(costs[1]!).toFixed(0)} | ${median(costs[0]!).toFixed(0)} |`,
    );
  }
  const other = BASELINE ? 'baseline' : PEER!;
  process.stdout.write(
    `| endpoint | c | this checkout × ${other} | range | CPU µs/request | ${other}'s |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n\nmedians of ${ROUNDS} rounds of ${DURATION} s, both servers on CPU 0 at once\n`,
  );
} finally {
  for (const s of servers) s.child.kill('SIGTERM');
  if (!option('db')) rmSync(dir, { recursive: true, force: true });
}
