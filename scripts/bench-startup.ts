// `npm run bench:startup`: start-up time and memory of `finance serve`, the compiled JavaScript
// (bin/finance.js, dist/) against the TypeScript sources run through tsx, in alternating rounds on
// one database that already has a company (no demo seeding). Time: from spawn until the banner is
// printed (listening); memory: the process's resident set size then. Medians, and compiled ÷ tsx.
// Usage: npm run bench:startup -- [--rounds 5]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const ROUNDS = Number(argv[argv.indexOf('--rounds') + 1] || 5);

const VARIANTS = {
  compiled: ['bin/finance.js'],
  tsx: ['--import', 'tsx', 'server/cli/main.ts'],
} as const;

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

async function startOnce(args: readonly string[], db: string): Promise<{ ms: number; rss: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...args, 'serve', '--db', db, '--port', String(port)], {
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
  child.removeAllListeners('exit');
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return { ms, rss };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const build = spawnSync('npm', ['run', 'build:server'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
  const dir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const db = join(dir, 'finance.sqlite');
  spawnSync(process.execPath, ['bin/finance.js', 'company', 'create', '--db', db, '--name', 'Bench Ltda', '--json']);
  const results: Record<string, { ms: number[]; rss: number[] }> = {
    compiled: { ms: [], rss: [] },
    tsx: { ms: [], rss: [] },
  };
  try {
    for (const args of Object.values(VARIANTS)) await startOnce(args, db); // warm the disk cache and the docs page
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, args] of Object.entries(VARIANTS)) {
        const { ms, rss } = await startOnce(args, db);
        results[name]!.ms.push(ms);
        results[name]!.rss.push(rss);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const row = (name: string) => {
    const r = results[name]!;
    return `| ${name} | ${median(r.ms).toFixed(0)} | ${median(r.rss).toFixed(1)} |`;
  };
  const ratio = (key: 'ms' | 'rss') => (median(results.compiled![key]) / median(results.tsx![key])).toFixed(2);
  process.stdout.write(
    [
      '| run | start-up ms (median) | RSS MiB (median) |',
      '|---|---|---|',
      row('compiled'),
      row('tsx'),
      `| compiled ÷ tsx | ${ratio('ms')} | ${ratio('rss')} |`,
      '',
      `medians of ${ROUNDS} alternating rounds`,
      '',
    ].join('\n'),
  );
}

await main();
