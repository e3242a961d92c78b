// Benchmark of the API beside an ingest: how long the API's calls wait while `finance ingest` loads
// a file into the SQLite store that `finance serve` is serving, each in its own process as an operator
// runs them (bench-ingest/round.ts). The figures are the calls' worst time and p99 during the ingest,
// the worst by the run's phase (while it stages, across its closing transaction, after it: its
// events and clean-up), and the same traffic without the ingest. With `--baseline DIR` (another
// checkout, e.g. `git worktree add DIR <commit>` with its node_modules) each round runs both
// checkouts one after the other, in alternating order, and the table gives this checkout's figures
// as ratios to the baseline's. Medians of the rounds: the machine is shared, so one round says little.
// Usage: npm run bench:ingest [-- --lines 40000 --rounds 3 --clients 4 --workers 1 --baseline DIR]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildServer } from './bench-http/compiled.js';
import { percentile, type Call } from './bench-ingest/load.js';
import { runRound, type RoundResult } from './bench-ingest/round.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const LINES = Number(arg('lines') ?? 40_000);
const ROUNDS = Number(arg('rounds') ?? 3);
const CLIENTS = Number(arg('clients') ?? 4);
const WORKERS = Number(arg('workers') ?? 1);
const BASELINE = arg('baseline');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const worst = (calls: Call[]) => Math.max(0, ...calls.map((c) => c.ms));

/** A round's figures: the run is published when the poll first sees it done. */
function figures(r: RoundResult) {
  const published = r.phases.find((p) => p.state.startsWith('DONE'))?.at ?? r.ingestMs;
  const end = (c: Call) => c.at + c.ms;
  return {
    worst: worst(r.beside),
    p99: percentile(r.beside, 99),
    staging: worst(r.beside.filter((c) => end(c) < published)),
    closing: worst(r.beside.filter((c) => c.at <= published && end(c) >= published)),
    after: worst(r.beside.filter((c) => c.at > published)),
    quietWorst: worst(r.quiet),
    quietP99: percentile(r.quiet, 99),
    calls: r.beside.length,
    failed: r.beside.filter((c) => c.status >= 500).length,
    ingest: r.ingestMs / 1000,
  };
}
type Figures = ReturnType<typeof figures>;

const checkouts = [
  ...(BASELINE ? [{ name: 'baseline', path: resolve(BASELINE) }] : []),
  { name: 'this checkout', path: process.cwd() },
];
for (const c of checkouts) buildServer(c.path);
const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
const results = new Map<string, Figures[]>(checkouts.map((c) => [c.name, []]));
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 ? [...checkouts].reverse() : checkouts;
    for (const c of order) {
      const result = await runRound({
        checkout: c.path,
        dir,
        name: `${c.name.replace(/ /g, '-')}-${round}`,
        lines: LINES,
        clients: CLIENTS,
        workers: WORKERS,
        port: 48_300 + round * 2 + checkouts.indexOf(c),
        quietSeconds: 3,
      });
      const f = figures(result);
      results.get(c.name)!.push(f);
      process.stderr.write(
        `${c.name}, round ${round + 1}: worst ${f.worst.toFixed(0)} ms (staging ${f.staging.toFixed(0)}, closing ${f.closing.toFixed(0)}, after ${f.after.toFixed(0)}), ` +
          `p99 ${f.p99.toFixed(0)} ms, ${f.failed} 5xx, ingest ${f.ingest.toFixed(1)} s; phases: ${result.phases
            .map((p) => `${p.state} ${(p.at / 1000).toFixed(1)} s`)
            .join(', ')}\n`,
      );
    }
  }
  const medians = checkouts.map((c) => {
    const fs = results.get(c.name)!;
    const of = (key: keyof Figures) => median(fs.map((f) => f[key]));
    return { name: c.name, of };
  });
  const base = medians[0]!;
  const cell = (m: (typeof medians)[number], key: keyof Figures, digits = 0) =>
    `${m.of(key).toFixed(digits)}${BASELINE ? ` (${(m.of(key) / base.of(key)).toFixed(2)})` : ''}`;
  process.stdout.write(
    [
      `API calls beside a ${LINES.toLocaleString('en')}-line \`finance ingest\` (SQLite, ${CLIENTS} clients, ${WORKERS} worker(s); medians of ${ROUNDS} rounds${BASELINE ? '; ratios to the baseline' : ''}), ms`,
      '| checkout | worst wait | p99 | worst while staging | worst across the closing transaction | worst after it | without the ingest: worst, p99 | calls during the ingest | 5xx | ingest, s |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...medians.map(
        (m) =>
          `| ${m.name} | ${cell(m, 'worst')} | ${cell(m, 'p99')} | ${cell(m, 'staging')} | ${cell(m, 'closing')} | ${cell(m, 'after')} | ${m.of('quietWorst').toFixed(0)}, ${m.of('quietP99').toFixed(0)} | ${m.of('calls')} | ${m.of('failed')} | ${cell(m, 'ingest', 1)} |`,
      ),
      '',
    ].join('\n'),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
