// `npm run check:static`: the checks of `npm run check` that read the tree and write nothing (lints,
// generated-is-fresh, import rules, unused code, typecheck, the breaking-change gate), two at a time:
// each is mostly one Node process on one core, so two at a time keep both cores of a CI machine busy
// (measured side by side on a two-core machine: 91 s one after another, 70 s two at a time).
// Each check's output is printed whole when it ends; the run fails when any fails.
// `npm run check:static -- lint typecheck` runs only those.
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';

/** Longest first, so the last to start is a short one. */
const CHECKS = [
  'contract:diff',
  'typecheck',
  'lint',
  'build:check',
  'lint:unused',
  'lint:owasp',
  'lint:deps',
  'lint:spec',
];
const AT_ONCE = Math.max(1, Math.min(2, cpus().length));

interface Outcome {
  name: string;
  code: number;
  seconds: number;
}

function runCheck(name: string): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = (Date.now() - started) / 1000;
      process.stdout.write(`\n> ${name} (${seconds.toFixed(1)} s${code === 0 ? '' : `, exit ${code}`})\n`);
      process.stdout.write(Buffer.concat(output));
      resolve({ name, code: code ?? 1, seconds });
    });
  });
}

const queue = process.argv.length > 2 ? process.argv.slice(2) : [...CHECKS];
const outcomes: Outcome[] = [];
await Promise.all(
  Array.from({ length: AT_ONCE }, async () => {
    for (let name = queue.shift(); name; name = queue.shift()) outcomes.push(await runCheck(name));
  }),
);
const failed = outcomes.filter((outcome) => outcome.code !== 0).map((outcome) => outcome.name);
if (failed.length > 0) {
  process.stderr.write(`\ncheck:static: ${failed.join(', ')} failed\n`);
  process.exit(1);
}
