// SIGTERM reaches the server however the docs start it: sent to the outer process of `npm start` (npm,
// which forwards it to the shell it ran the script in) and of `npx finance serve` (npm exec, whose
// shell dies of it without passing it on), a request in flight finishes, then the server exits and
// leaves the port free. `npx` runs here from a folder whose node_modules/.bin links `finance`, as in a
// project that installed the package: the same npm → sh → node chain as in this checkout, without
// npx first installing the checkout into its cache.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finance } from './support/cli.js';
import { freePort } from './support/ports.js';
import { openSocket, readReply } from './support/raw-http.js';

const ROOT = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'finance-signals-'));
const dbPath = join(dir, 'finance.sqlite');
const started: number[] = [];

beforeAll(async () => {
  // A company already there: serve starts without seeding the demo company.
  await finance(['company', 'create', '--name', 'Sinais Ltda', '--db', dbPath, '--json']);
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(join(ROOT, 'bin/finance.js'), join(dir, 'node_modules/.bin/finance'));
}, 60_000);
afterAll(() => {
  for (const pid of started) alive(pid) && process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Every process's parent, from /proc. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const name of readdirSync('/proc').filter((n) => /^[0-9]+$/.test(n))) {
    try {
      // pid (comm) state ppid …: comm may hold spaces and parentheses, the last ')' ends it.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      map.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  return map;
}

const descendants = (root: number) => {
  const map = parents();
  const found = [root];
  for (let i = 0; i < found.length; i += 1)
    for (const [pid, ppid] of map) if (ppid === found[i] && !found.includes(pid)) found.push(pid);
  return found.slice(1);
};

/** Running (a zombie has exited). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  for (const end = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
}

/** Starts `command` the way the docs do and waits for the sandbox's banner. */
async function outer(command: string, args: string[], cwd: string, port: number) {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    // A grace far beyond the test's timeout: the server must not wait for it.
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: '600000' },
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  await until(() => out.includes('Token URL') || child.exitCode !== null, 60_000, 'the banner');
  if (!out.includes('Token URL')) throw new Error(`${command} exited: ${out}`);
  const tree = descendants(child.pid!);
  started.push(...tree);
  return { child, exited, tree, output: () => out };
}

/** SIGTERM to the outer process while a request is half sent; the request then finishes and the server goes away. */
async function stopsAfterDraining({ child, tree, output }: Awaited<ReturnType<typeof outer>>, port: number) {
  const socket = await openSocket(`http://127.0.0.1:${port}`);
  const body = 'grant_type=client_credentials&client_id=cli_x&client_secret=sk_x';
  socket.write(
    `POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  await new Promise((r) => setTimeout(r, 200));
  child.kill('SIGTERM');
  await until(() => output().includes('shutting down'), 10_000, 'the server to start shutting down');
  const reply = await readReply(socket, body.slice(10), 10_000);
  expect(reply.status).toBe(401);
  expect(reply.headers.connection).toBe('close');
  await until(() => !tree.some(alive), 10_000, 'every process it started to exit');
  expect(output()).toContain('"msg":"stopped"');
  const refused = await openSocket(`http://127.0.0.1:${port}`).then(
    (s) => s.destroy(),
    (err: NodeJS.ErrnoException) => err.code,
  );
  expect(refused).toBe('ECONNREFUSED');
}

describe('SIGTERM to the process the docs start', () => {
  it('when `npm start` gets it, then the server drains, exits, and npm exits 0 with it', async () => {
    const port = await freePort();
    const npm = await outer('npm', ['start', '--', '--db', dbPath], ROOT, port);
    await stopsAfterDraining(npm, port);
    expect(await npm.exited).toBe(0);
  }, 90_000);

  it('when `npx finance serve` gets it, then the server drains and exits, though npx and its shell end at once', async () => {
    const port = await freePort();
    const npx = await outer('npx', ['finance', 'serve', '--db', dbPath], dir, port);
    await stopsAfterDraining(npx, port);
  }, 90_000);
});
