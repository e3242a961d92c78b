// `npm run bench`: the whole HTTP stack side by side with baselines serving identical bytes.
// Seeds a company with 100,000 banking transactions, starts the real server in a child process with
// production settings, records its exact answer to each benchmarked request, and starts a bare
// Express and a node:http server replaying those bytes, a bare Express that runs the framework we
// keep (JSON body parser and express-openapi-validator on our contract) before replaying them (the
// floor of any handler code: the stock middleware, configured as ours), a Prism mock of our public
// bundle, and the same work written the obvious way on the same stack (`same work`: Express,
// express.json, the stock validator, a token lookup, the operation's own query and JSON, res.json;
// scripts/bench-http/same-work.ts) and on Fastify (`Fastify same work`: route schemas from the contract
// validated by its ajv, answers serialized by fast-json-stringify; scripts/bench-http/fastify-peer.ts),
// and the same Fastify service with a production service's per-request duties (`Fastify with duties`:
// pino access line, request id, traceparent, @fastify/helmet, @fastify/etag, a prom-client histogram;
// bench-http/fastify-duties.ts), whose answers are checked equal to the service's first. Each server's
// peak resident memory (VmHWM of /proc/<pid>/status, read before it is stopped) closes the table.
// autocannon then drives each server in interleaved rounds; the table shows medians, the ratios to bare Express (req/s and p99), the floor's ratio to bare Express, the service's 5xx
// answers over all rounds (`shed`), and the service's req/s over each further target's (`service × it`:
// over the floor, over Prism…).
// Servers are pinned to CPU 0 and the load generator to CPU 1 when `taskset` exists.
// Every server runs compiled, as production runs it: ours from `dist/` (rebuilt first) through
// `bin/finance.js`, the peers transpiled beside it (bench-http/compiled.ts); `--tsx` runs the sources
// through tsx instead (each process then carries tsx's loader: ~100 MB more resident memory).
// Usage: npm run bench -- [--quick] [--json] [--rounds 3] [--duration 5] [--connections 10,50]
//        [--only <substring,…>] [--validation] [--transactions 100000] [--db FILE] [--profile DIR] [--tsx]
//   --validation  also runs the server with response validation on (its cost, as a ratio)
//   --db FILE     keeps the seeded database in FILE and reuses it on the next run
//   --profile DIR runs the server under `node --cpu-prof`, profiles written to DIR on exit (the
//                 same-work peers' to DIR/same-work and DIR/fastify)
//   --baseline DIR also runs the server of another checkout (e.g. `git worktree add DIR main`), as a ratio to ours
//   --tail        runs the service with --trace-gc and prints, per endpoint and connection count, what it did
//                 while driven: CPU busy share, GC pauses, TIME-WAIT sockets, latency beside Little's law (tail.ts)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  type Endpoint,
} from './bench-http/setup.js';
import type { Recording } from './bench-http/replay.js';
import { mainThreadProfiles, topSelfTime } from './bench-http/profile-top.js';
import { cpuMs, GcLog, tailTable, timeWait, type TailSample } from './bench-http/tail.js';
import { buildServer, compilePeers } from './bench-http/compiled.js';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => (argv.indexOf(`--${name}`) >= 0 ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const QUICK = flag('quick');
const ROUNDS = Number(option('rounds') ?? 3);
const DURATION = Number(option('duration') ?? (QUICK ? 1 : 5));
const WARMUP = QUICK ? 0.5 : 2;
const CONNECTIONS = (option('connections') ?? '10,50').split(',').map(Number);
const TRANSACTIONS = Number(option('transactions') ?? (QUICK ? 2_000 : 100_000));
const ONLY = option('only')?.split(',');
const PROFILE = option('profile');
const BASELINE = option('baseline');
const TAIL = flag('tail');
const TSX = flag('tsx');

const pinned = spawnSync('taskset', ['--version']).status === 0;
const onCpu = (cpu: number, command: string[]) => (pinned ? ['taskset', '-c', String(cpu), ...command] : command);
const NODE = TSX ? [process.execPath, '--import', 'tsx'] : [process.execPath];

interface Target {
  name: string;
  port: number;
  child?: ChildProcess;
}

/** Bare Express plus the JSON body parser and the stock express-openapi-validator middleware, no handler. */
const FLOOR = 'Express + validator';
/** Stoplight Prism mocking our public bundle: what a static mock of the contract serves. */
const PRISM = 'Prism mock';
/** The same work written the obvious way on the same stack (bench-http/same-work.ts), answers checked equal. */
const SAME_WORK = 'same work';
/** The same work on Fastify (bench-http/fastify-peer.ts), answers checked equal. */
const FASTIFY = 'Fastify same work';
/** The same Fastify service with a production service's per-request duties (bench-http/fastify-duties.ts). */
const DUTIES = 'Fastify with duties';

/** A process's peak resident set (VmHWM) in MB, or undefined when /proc does not tell. */
function peakRssMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

function start(
  name: string,
  port: number,
  command: string[],
  env: Record<string, string> = {},
  cwd?: string,
  stdout: 'ignore' | 'pipe' = 'ignore',
): Target {
  const [bin, ...args] = onCpu(0, command);
  const child = spawn(bin!, args, { env: { ...process.env, ...env }, stdio: ['ignore', stdout, 'inherit'], cwd });
  return { name, port, child };
}

async function stop(target: Target) {
  const child = target.child;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  meanMs: number;
  errors: number;
  non2xx: number;
  /** 503 answers: requests shed (the service's load shedding). */
  shed: number;
}

async function drive(
  target: Target,
  token: string,
  e: Endpoint,
  connections: number,
  seconds: number,
): Promise<Sample> {
  const result = await driveEndpoint(target.port, token, e, connections, seconds);
  const ok = result.requests.total - result.non2xx;
  return {
    rps: ok / (result.duration || seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    meanMs: result.latency.mean,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    shed: (result as unknown as Record<string, number>)['5xx'] ?? 0,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  if (pinned) spawnSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
  const keep = option('db');
  const dir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const file = keep ?? join(dir, 'bench.sqlite');
  const data = await prepareDatabase(file, TRANSACTIONS);
  if (!TSX) {
    buildServer();
    if (BASELINE) buildServer(BASELINE);
  }
  /** A peer's script: the source under tsx, otherwise its compiled copy. */
  const script = TSX ? (name: string) => `scripts/bench-http/${name}.ts` : compilePeers(join(dir, 'compiled'));
  /** `finance serve` of a checkout: its sources under tsx, otherwise its `dist/` through its `bin/finance.js`. */
  const finance = (checkout: string) => resolve(checkout, TSX ? 'server/cli/main.ts' : 'bin/finance.js');
  const targets: Target[] = [];
  try {
    const production = productionEnv(dir);
    const serve = (port: number, extra: string[] = []) => [
      ...NODE,
      ...extra,
      finance('.'),
      'serve',
      '--db',
      file,
      '--port',
      String(port),
    ];
    const service = start(
      'service',
      48_101,
      serve(48_101, [...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE] : []), ...(TAIL ? ['--trace-gc'] : [])]),
      production,
      undefined,
      TAIL ? 'pipe' : 'ignore',
    );
    const gc = TAIL ? new GcLog(service.child!) : undefined;
    targets.push(service);
    await ready(service);
    const base = `http://127.0.0.1:${service.port}`;
    const all = (await endpoints(base, data)).filter((e) => !ONLY || ONLY.some((o) => e.name.includes(o)));
    const recordings: Recording[] = [];
    for (const e of all) recordings.push(await record(base, tokenFor(data, e), e));
    const recordFile = join(dir, 'recordings.json');
    writeFileSync(recordFile, JSON.stringify(recordings));
    targets.push(start('bare Express', 48_102, [...NODE, script('replay'), 'express', recordFile, '48102']));
    targets.push(start('node:http', 48_103, [...NODE, script('replay'), 'node', recordFile, '48103']));
    targets.push(start(FLOOR, 48_106, [...NODE, script('replay'), 'validator', recordFile, '48106']));
    targets.push(
      start(PRISM, 48_107, [
        process.execPath,
        'node_modules/@stoplight/prism-cli/dist/index.js',
        'mock',
        'generated/openapi.public.json',
        '-p',
        '48107',
        '-v',
        'silent',
      ]),
    );
    /** A same-work peer on the seeded file, given the recordings (its profile in DIR/<profile>). */
    const peer = (label: string, port: number, name: string, profile: string, extra: string[] = []) =>
      start(
        label,
        port,
        [
          ...NODE,
          ...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', join(PROFILE, profile)] : []),
          script(name),
          file,
          String(port),
          recordFile,
          ...extra,
        ],
        production,
      );
    const sameWork = peer(SAME_WORK, 48_108, 'same-work', 'same-work');
    const fastify = peer(FASTIFY, 48_109, 'fastify-peer', 'fastify');
    const duties = peer(DUTIES, 48_110, 'fastify-peer', 'fastify-duties', ['duties']);
    targets.push(sameWork, fastify, duties);
    if (flag('validation')) {
      targets.push(
        start('service, responses validated', 48_104, serve(48_104), { ...production, VALIDATE_RESPONSES: 'true' }),
      );
    }
    if (BASELINE) {
      targets.push(
        start(
          `service at ${BASELINE}`,
          48_105,
          [...NODE, finance(BASELINE), 'serve', '--db', file, '--port', '48105'],
          production,
          BASELINE,
        ),
      );
    }
    for (const t of targets.slice(1)) await ready(t);
    await sameAnswers(sameWork, data, all, recordings);
    await sameAnswers(fastify, data, all, recordings);
    await sameAnswers(duties, data, all, recordings);

    process.stderr.write(`warming up${pinned ? '' : ' (taskset not found: processes are not pinned)'}…\n`);
    for (const t of targets) for (const e of all) await drive(t, tokenFor(data, e), e, 10, WARMUP);

    const samples = new Map<string, Sample[]>();
    const tails = new Map<string, TailSample[]>();
    /** Drives the service, recording what it did meanwhile (--tail). */
    const observed = async (e: Endpoint, c: number): Promise<Sample> => {
      const pid = service.child?.pid;
      gc!.take();
      const cpuBefore = cpuMs(pid);
      const startedAt = performance.now();
      const sample = await drive(service, tokenFor(data, e), e, c, DURATION);
      const seconds = (performance.now() - startedAt) / 1000;
      const tail: TailSample = {
        connections: c,
        rps: sample.rps,
        meanMs: sample.meanMs,
        p50: sample.p50,
        p99: sample.p99,
        busy: (cpuMs(pid) - cpuBefore) / (1000 * seconds),
        gcPauses: gc!.take(),
        seconds,
        timeWait: timeWait(service.port),
      };
      tails.set(`${e.name}|${c}`, [...(tails.get(`${e.name}|${c}`) ?? []), tail]);
      return sample;
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const e of all) {
        for (const c of CONNECTIONS) {
          // Rotate the order each round so no server always runs first or last.
          const order = targets.map((_t, i) => targets[(i + round) % targets.length]!);
          for (const t of order) {
            const key = `${e.name}|${c}|${t.name}`;
            const sample =
              TAIL && t === service ? await observed(e, c) : await drive(t, tokenFor(data, e), e, c, DURATION);
            samples.set(key, [...(samples.get(key) ?? []), sample]);
          }
        }
      }
      process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
    }

    const rows = all.flatMap((e) =>
      CONNECTIONS.map((c) => {
        const of = (t: Target) => {
          const s = samples.get(`${e.name}|${c}|${t.name}`)!;
          return {
            rps: Math.round(median(s.map((x) => x.rps))),
            p99: median(s.map((x) => x.p99)),
            errors: s.reduce((n, x) => n + x.errors, 0),
            non2xx: s.reduce((n, x) => n + x.non2xx, 0),
            shed: s.reduce((n, x) => n + x.shed, 0),
          };
        };
        const results = Object.fromEntries(targets.map((t) => [t.name, of(t)]));
        const express = results['bare Express']!;
        const ratios = Object.fromEntries(
          targets.map((t) => [
            t.name,
            {
              rps: Number((results[t.name]!.rps / express.rps).toFixed(2)),
              p99: Number((results[t.name]!.p99 / Math.max(express.p99, 1)).toFixed(2)),
            },
          ]),
        );
        return { endpoint: e.name, connections: c, results, ratiosToExpress: ratios };
      }),
    );
    const peakRss = Object.fromEntries(targets.map((t) => [t.name, peakRssMb(t.child?.pid)]));

    if (flag('json')) {
      process.stdout.write(
        `${JSON.stringify({ rounds: ROUNDS, durationSeconds: DURATION, transactions: TRANSACTIONS, pinned, rows, peakRssMb: peakRss }, null, 2)}\n`,
      );
    } else {
      const extra = targets.slice(3);
      const head = [
        'endpoint',
        'c',
        'service req/s',
        'p99 ms',
        'Express req/s',
        'p99 ms',
        'node:http req/s',
        '× Express req/s',
        '× Express p99',
        'floor × Express req/s',
        'shed',
        ...extra.flatMap((t) => [`${t.name} req/s`, 'service × it']),
        'p99 × same work',
        'p99 × Fastify',
        'p99 × Fastify duties',
      ];
      const lines = rows.map((r) => {
        const s = r.results.service!;
        const x = r.results['bare Express']!;
        const n = r.results['node:http']!;
        return [
          r.endpoint,
          String(r.connections),
          String(s.rps),
          String(s.p99),
          String(x.rps),
          String(x.p99),
          String(n.rps),
          r.ratiosToExpress.service!.rps.toFixed(2),
          r.ratiosToExpress.service!.p99.toFixed(2),
          r.ratiosToExpress[FLOOR]!.rps.toFixed(2),
          String(s.shed),
          ...extra.flatMap((t) => [String(r.results[t.name]!.rps), (s.rps / r.results[t.name]!.rps).toFixed(2)]),
          (s.p99 / Math.max(r.results[SAME_WORK]!.p99, 1)).toFixed(2),
          (s.p99 / Math.max(r.results[FASTIFY]!.p99, 1)).toFixed(2),
          (s.p99 / Math.max(r.results[DUTIES]!.p99, 1)).toFixed(2),
        ];
      });
      process.stdout.write(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n`);
      for (const l of lines) process.stdout.write(`| ${l.join(' | ')} |\n`);
      const failures = rows.flatMap((r) =>
        targets
          .filter((t) => r.results[t.name]!.errors + r.results[t.name]!.non2xx > 0)
          .map(
            (t) =>
              `${r.endpoint} c=${r.connections} ${t.name}: ${r.results[t.name]!.non2xx} non-2xx, ${r.results[t.name]!.errors} errors`,
          ),
      );
      const ours = peakRss.service;
      process.stdout.write(
        `\n| peak RSS (VmHWM) | MB | service × it |\n|---|---|---|\n${targets
          .map((t) => {
            const mb = peakRss[t.name];
            return `| ${t.name} | ${mb ?? '?'} | ${mb && ours ? (ours / mb).toFixed(2) : '?'} |`;
          })
          .join('\n')}\n`,
      );
      if (failures.length > 0) process.stdout.write(`\nnot counted in req/s:\n${failures.join('\n')}\n`);
      process.stdout.write(
        `\nmedians of ${ROUNDS} interleaved rounds of ${DURATION} s; ${TRANSACTIONS} banking transactions; ${pinned ? 'servers on CPU 0, load on CPU 1' : 'not pinned'}\n`,
      );
      if (TAIL) {
        // Per endpoint and connection count, the service's drive with the median p99.
        const medianTail = (list: TailSample[]) =>
          [...list].sort((a, b) => a.p99 - b.p99)[Math.floor(list.length / 2)]!;
        const tailRows = all.flatMap((e) =>
          CONNECTIONS.map((c) => ({ endpoint: e.name, sample: medianTail(tails.get(`${e.name}|${c}`)!) })),
        );
        process.stdout.write(
          `\nthe service while driven (--tail; the drive with the median p99):\n${tailTable(tailRows)}`,
        );
      }
    }
  } finally {
    for (const t of targets) await stop(t);
    rmSync(dir, { recursive: true, force: true });
  }
  if (PROFILE)
    process.stderr.write(
      `\nthe server's top self time (${PROFILE}):\n${topSelfTime(mainThreadProfiles(PROFILE), 10)}\n`,
    );
}

await main();
