// `finance serve` stops promptly on SIGTERM: idle keep-alive connections are closed at once,
// a request in flight finishes with `Connection: close`, then the process exits. With
// SHUTDOWN_DRAIN_MS it first drains: `/ready` fails while every other request is still answered.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSocket, readReply } from './support/raw-http.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'finance-shutdown-'));
const dbPath = join(dir, 'finance.sqlite');

beforeAll(async () => {
  // A company already exists, so `serve` starts without seeding demo data.
  await run('node', ['bin/finance.js', 'company', 'create', '--name', 'Desliga Ltda', '--db', dbPath, '--json'], {
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; baseUrl: string; exited: Promise<number | null> }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  // A grace period far beyond the test's timeout: the process must not wait for it.
  const child = spawn('node', ['bin/finance.js', 'serve', '--db', dbPath, '--port', String(port)], {
    env: { ...process.env, LOG_LEVEL: 'silent', SHUTDOWN_GRACE_MS: '600000', ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Token URL')) resolve();
    });
    void exited.then((code) => reject(new Error(`serve exited early with ${code}: ${out}`)));
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, exited };
}

describe('SIGTERM', () => {
  it('when a keep-alive connection is idle, then the process exits 0 without waiting for the grace period', async () => {
    const { child, baseUrl, exited } = await serve();
    const socket = await openSocket(baseUrl);
    socket.setKeepAlive(true);
    const first = await new Promise<string>((resolve) => {
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString()));
      socket.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    });
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    child.kill('SIGTERM');
    await closed;
    expect(await exited).toBe(0);
  }, 20_000);

  it('when a request is in flight, then it completes with Connection: close and then the process exits 0', async () => {
    const { child, baseUrl, exited } = await serve();
    const socket = await openSocket(baseUrl);
    const body = 'grant_type=client_credentials&client_id=cli_x&client_secret=sk_x';
    socket.write(
      `POST /oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reply = await readReply(socket, body.slice(10), 10_000);
    expect(reply.status).toBe(401);
    expect(reply.headers.connection).toBe('close');
    expect(reply.closed).toBe(true);
    expect(await exited).toBe(0);
  }, 20_000);

  it('when SHUTDOWN_DRAIN_MS is set, then /ready answers 503 draining while other requests, on new and kept-alive connections, answer 200 with Connection: close, and then the process exits 0', async () => {
    const { child, baseUrl, exited } = await serve({ SHUTDOWN_DRAIN_MS: '1500' });
    expect((await fetch(`${baseUrl}/ready`)).status).toBe(200);
    const kept = await openSocket(baseUrl);
    const first = await new Promise<string>((resolve) => {
      kept.once('data', (chunk: Buffer) => resolve(chunk.toString()));
      kept.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    });
    expect(first).toMatch(/^HTTP\/1\.1 200/);

    child.kill('SIGTERM');
    // The listener still accepts: the signal shows as /ready failing, not as a refused connection.
    let ready = await fetch(`${baseUrl}/ready`);
    for (let i = 0; i < 20 && ready.status === 200; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      ready = await fetch(`${baseUrl}/ready`);
    }
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'draining' });
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get('connection')).toBe('close');
    const reply = await readReply(kept, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n', 5_000);
    expect(reply.status).toBe(200);
    expect(reply.headers.connection).toBe('close');
    expect(reply.closed).toBe(true);

    expect(await exited).toBe(0);
  }, 20_000);
});
