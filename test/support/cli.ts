// `finance` run in the test's own process: the same command tree as `bin/finance.js`, with its output
// captured and its exit turned into a result. For behaviours that do not need a process of their own
// (parsing, checks, what a command prints and writes); each needing one (start-up, signals, `serve`)
// keeps a spawn of bin/finance.js.
import { CommanderError } from 'commander';
import { failureLine, financeProgram } from '../../server/cli/program.js';

interface FinanceResult {
  code: number;
  stdout: string;
  stderr: string;
}

let running = false;

/** What `process.exit(code)` throws while a command runs here: the test's process must outlive it. */
class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** Runs `finance …args` with `env` laid over process.env for the duration; never rejects. */
export async function financeInProcess(args: string[], env: Record<string, string> = {}): Promise<FinanceResult> {
  if (running) throw new Error('financeInProcess: one command at a time (it captures process.stdout)');
  running = true;
  const out: string[] = [];
  const err: string[] = [];
  const writeOut = process.stdout.write;
  const writeErr = process.stderr.write;
  const exit = process.exit;
  const savedEnv = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const savedExitCode = process.exitCode;
  process.exitCode = undefined;
  Object.assign(process.env, env);
  process.stdout.write = ((chunk: string | Uint8Array) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => err.push(String(chunk)) > 0) as typeof process.stderr.write;
  process.exit = ((status?: number) => {
    throw new Exited(Number(status ?? 0));
  }) as typeof process.exit;
  let code = 0;
  try {
    const program = await financeProgram((e) => {
      throw e;
    }, args[0]);
    await program.parseAsync(args, { from: 'user' });
    code = Number(process.exitCode ?? 0);
  } catch (e) {
    if (e instanceof CommanderError) code = e.exitCode;
    else if (e instanceof Exited) code = e.code;
    else {
      err.push(failureLine(e, process.env, 0));
      code = 1;
    }
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
    process.exit = exit;
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    process.exitCode = savedExitCode;
    running = false;
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** `finance …args`, its stdout when it succeeds; rejects with its stderr (and code) when it fails, as execFile does. */
export async function finance(args: string[], env: Record<string, string> = {}): Promise<string> {
  const result = await financeInProcess(args, env);
  if (result.code !== 0)
    throw Object.assign(new Error(`finance ${args.join(' ')} exited ${result.code}: ${result.stderr}`), result);
  return result.stdout;
}

/** What `work` writes on stderr while it runs (warnings written before any logger exists, as at a server's start). */
export async function stderrOf(work: () => Promise<unknown>): Promise<string> {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => written.push(String(chunk)) > 0) as typeof write;
  try {
    await work();
  } finally {
    process.stderr.write = write;
  }
  return written.join('');
}
