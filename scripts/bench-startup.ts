// `npm run bench:startup`: start-up time and memory of `finance serve`, the compiled JavaScript
// (bin/finance.js, dist/) against the TypeScript sources run through tsx, in alternating rounds on
// one database that already has a company (no demo seeding). Time: from spawn until the banner is
// printed (listening); CPU: the process's user + system time then; memory: its resident set size
// then. Medians, and compiled ÷ tsx. With `--baseline DIR` (a worktree of another commit, built), its
// compiled server runs in the same rounds, and compiled ÷ baseline is reported too.
// Usage: npm run bench:startup -- [--rounds 5] [--baseline DIR]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cpuMs } from './bench-http/tail.js';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const ROUNDS = Number(option('--rounds') || 5);
const BASELINE = option('--baseline');

interface Variant {
  args: readonly string[];
  /** Where it runs (its dist/ and generated/ are read from there). */
  cwd: string;
}
const VARIANTS: Record<string, Variant> = {
  compiled: { args: ['bin/finance.js'], cwd: process.cwd() },
  tsx: { args: ['--import', 'tsx', 'server/cli/main.ts'], cwd: process.cwd() },
  ...(BASELINE ? { baseline: { args: ['bin/finance.js'], cwd: resolve(BASELINE) } } : {}),
};

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const rssMiB = (pid: number) => {
  const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib) / 1024;
};

interface Start {
  ms: number;
  cpu: number;
  rss: number;
}

async function startOnce({ args, cwd }: Variant, db: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...args, 'serve', '--db', db, '--port', String(port)], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const ms = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Token URL')) resolve(performance.now() - started);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  const rss = rssMiB(child.pid!);
  const cpu = cpuMs(child.pid!);
  child.removeAllListeners('exit');
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return { ms, cpu, rss };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const build = spawnSync('npm', ['run', 'build:server'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
  const dir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const db = join(dir, 'finance.sqlite');
  spawnSync(process.execPath, ['bin/finance.js', 'company', 'create', '--db', db, '--name', 'Bench Ltda', '--json']);
  const results = Object.fromEntries(
    Object.keys(VARIANTS).map((name) => [name, { ms: [] as number[], cpu: [] as number[], rss: [] as number[] }]),
  );
  try {
    for (const variant of Object.values(VARIANTS)) await startOnce(variant, db); // warm the disk cache and the docs page
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, variant] of Object.entries(VARIANTS)) {
        const start = await startOnce(variant, db);
        for (const key of ['ms', 'cpu', 'rss'] as const) results[name]![key].push(start[key]);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const row = (name: string) => {
    const r = results[name]!;
    return `| ${name} | ${median(r.ms).toFixed(0)} | ${median(r.cpu).toFixed(0)} | ${median(r.rss).toFixed(1)} |`;
  };
  const ratio = (of: string) => {
    const part = (key: keyof Start) => (median(results.compiled![key]) / median(results[of]![key])).toFixed(2);
    return `| compiled ÷ ${of} | ${part('ms')} | ${part('cpu')} | ${part('rss')} |`;
  };
  process.stdout.write(
    [
      '| run | start-up ms (median) | CPU ms (median) | RSS MiB (median) |',
      '|---|---|---|---|',
      ...Object.keys(VARIANTS).map(row),
      ratio('tsx'),
      ...(BASELINE ? [ratio('baseline')] : []),
      '',
      `medians of ${ROUNDS} alternating rounds`,
      '',
    ].join('\n'),
  );
}

await main();
