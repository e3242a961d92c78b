// `finance serve --host` / HOST: the sandbox listens on this machine only unless told otherwise;
// `--host 0.0.0.0` (a container) makes it reachable on the machine's other addresses.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, sandboxEnv } from './support/database.js';
import { freePort } from './support/ports.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'finance-host-'));
let dbPath = '';
/** An IPv4 address of this machine other than loopback, if it has one. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

beforeAll(async () => {
  dbPath = await freshDatabase(dir);
  // A company already there: serve skips creating and seeding the demo company.
  await run('node', ['bin/finance.js', 'company', 'create', '--name', 'Host Ltda', '--db', dbPath, '--json']);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serving(args: string[], env: NodeJS.ProcessEnv = {}) {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'node',
    ['bin/finance.js', 'serve', '--db', dbPath, '--port', String(port), ...args],
    {
      env: { ...process.env, LOG_LEVEL: 'silent', HOST: '', ...sandboxEnv(dbPath), ...env },
    },
  );
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => out.includes('Token URL') && resolve());
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  const stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { port, banner: out, stop };
}

const health = (host: string, port: number) =>
  fetch(`http://${host}:${port}/health`).then(
    (res) => res.status,
    (err: { cause?: { code?: string } }) => err.cause?.code ?? 'failed',
  );

describe('finance serve --host', () => {
  it('when started without --host or HOST, then it answers on 127.0.0.1 and says it listens on this machine only', async () => {
    const { port, banner, stop } = await serving([]);
    try {
      expect(await health('127.0.0.1', port)).toBe(200);
      expect(banner).toContain('this machine only');
      // The company the command line made is not the sandbox's: no demo data, and the start says so.
      expect(banner).toMatch(
        /the sandbox adds no demo data to a database holding companies it did not create \([^)]*Host Ltda\)/,
      );
      expect(banner).not.toContain('Demo company:');
      if (external) expect(await health(external, port)).toBe('ECONNREFUSED');
    } finally {
      await stop();
    }
  }, 60_000);

  it.skipIf(!external)(
    'when started with HOST=0.0.0.0, then the machine’s other address reaches it',
    async () => {
      const { port, banner, stop } = await serving([], { HOST: '0.0.0.0' });
      try {
        expect(await health(external!, port)).toBe(200);
        expect(banner).toContain('address 0.0.0.0');
      } finally {
        await stop();
      }
    },
    60_000,
  );

  it('when --host is not an address, then serve refuses to start and says what to pass', async () => {
    const failure = await run('node', ['bin/finance.js', 'serve', '--db', dbPath, '--host', 'a b;c']).then(
      () => '',
      (err: { stderr: string }) => err.stderr,
    );
    expect(failure).toContain('not a host name or address: a b;c');
  }, 30_000);
});
