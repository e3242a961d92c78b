// Every curl sample of the docs page runs as pasted against a fresh sandbox: `finance serve` on an
// empty database (the demo company, its fixtures), the page it serves, each sample through bash with
// the demo credentials in TOKEN, CLIENT_ID and CLIENT_SECRET — reads first, then writes, deletes
// last, as someone trying the page top to bottom would (a delete removes what a later sample uses).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/ports.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'finance-samples-'));
let child: ChildProcess | undefined;
let baseUrl = '';
let credentials = { clientId: '', clientSecret: '' };
let page = '';

beforeAll(async () => {
  const port = await freePort();
  child = spawn('node', ['bin/finance.js', 'serve', '--db', join(dir, 'sandbox.db'), '--port', String(port)], {
    env: { ...process.env, LOG_LEVEL: 'silent', HOST: '' },
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('client_secret:')) resolve();
    });
    child!.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child!.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  baseUrl = `http://localhost:${port}`;
  credentials = {
    clientId: /client_id:\s+(\S+)/.exec(out)![1]!,
    clientSecret: /client_secret:\s+(\S+)/.exec(out)![1]!,
  };
  page = await (await fetch(`${baseUrl}/docs`)).text();
}, 180_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The curl samples as the page holds them (JSON strings in its embedded contract), in page order. */
const curlSamples = (html: string): string[] =>
  [...html.matchAll(/"lang":"Shell","label":"curl","source":("(?:[^"\\]|\\.)*")/g)].map(
    (match) => JSON.parse(match[1]!) as string,
  );

/** 0 reads, 1 writes, 2 deletes: the order someone trying every sample would keep. */
const stage = (source: string) => (/-X DELETE/.test(source) ? 2 : /-X /.test(source) ? 1 : 0);

/** A `curl` first on the PATH that reports each answer's status on stderr, one line per request. */
function statusReportingCurl(): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'curl'), `#!/bin/sh\nexec /usr/bin/curl -w '%{stderr}%{http_code}\\n' "$@"\n`);
  chmodSync(join(bin, 'curl'), 0o755);
  return bin;
}

describe('docs samples against a fresh sandbox', () => {
  it("when the sandbox starts, then the demo company's example webhook endpoint keeps its deliveries but is disabled: nothing is sent to its address", async () => {
    const { access_token: token } = (await (
      await fetch(`${baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
        }),
      })
    ).json()) as { access_token: string };
    const get = async (path: string) =>
      (await (await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        items: Array<Record<string, unknown>>;
      };
    const [endpoint, ...others] = (await get('/webhooks/v1/endpoints')).items;
    expect(others).toEqual([]);
    expect(endpoint).toMatchObject({ url: 'https://erp.demo-comercio.com.br/hooks/finance', status: 'disabled' });
    const deliveries = (await get(`/webhooks/v1/endpoints/${String(endpoint!.id)}/deliveries`)).items;
    expect(deliveries.length).toBeGreaterThan(0);
    // Pending until the worker's next round gives them up; never an attempt at the address.
    for (const delivery of deliveries)
      if (delivery.status === 'pending') expect(delivery.attempts).toBe(0);
      else expect(delivery).toMatchObject({ status: 'failed', error: 'the endpoint is disabled' });
  });

  it('when every curl sample of the served page is run as pasted, then every answer is 2xx (the card page its 308)', async () => {
    const samples = curlSamples(page);
    expect(samples.length).toBeGreaterThan(60);
    expect(samples.every((source) => source.includes(baseUrl))).toBe(true);
    const token = (await (
      await fetch(`${baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
        }),
      })
    ).json()) as { access_token: string };
    const work = join(dir, 'work');
    mkdirSync(work, { recursive: true });
    // The file an upload sample sends (`--data-binary @file.pdf`): a PDF's signature is all it checks.
    writeFileSync(join(work, 'file.pdf'), '%PDF-1.4\n%%EOF\n');
    const env = {
      ...process.env,
      PATH: `${statusReportingCurl()}:${process.env.PATH}`,
      TOKEN: token.access_token,
      CLIENT_ID: credentials.clientId,
      CLIENT_SECRET: credentials.clientSecret,
    };
    // Revoking a token (RFC 7009) authenticates an app with its own credentials and names its refresh
    // token: the page's CLIENT_ID is the company's API client, no app (docs/authorization.md runs the app's flow).
    const sorted = samples
      .filter((source) => !source.includes('/oauth/revoke'))
      .map((source, i) => ({ source, i }))
      .sort((a, b) => stage(a.source) - stage(b.source) || a.i - b.i);
    const failures: string[] = [];
    const tryOne = async (source: string) => {
      const result = await run('bash', ['-c', `set -eo pipefail\n${source}`], {
        cwd: work,
        env,
        maxBuffer: 64 << 20,
      }).catch((err: { stdout: string; stderr: string; code: number }) => ({ ...err, failed: err.code }));
      const statuses = result.stderr
        .split('\n')
        .filter((line) => /^\d{3}$/.test(line))
        .map(Number);
      const ok = !('failed' in result) && statuses.length > 0 && statuses.every((s) => s >= 200 && s < 400);
      if (!ok)
        failures.push(`${source}\n  → ${statuses.join(', ') || 'no answer'} ${String(result.stdout).slice(0, 300)}`);
    };
    // Reads change nothing: four at a time. Writes and deletes one by one, in page order.
    const reads = sorted.filter(({ source }) => stage(source) === 0);
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < reads.length) await tryOne(reads[next++]!.source);
      }),
    );
    for (const { source } of sorted.slice(reads.length)) await tryOne(source);
    expect(failures, failures.join('\n\n')).toEqual([]);
    // The samples that answer a file save it under the name the server gives (a receipt, an attachment).
    expect(readdirSync(work).sort()).toEqual([
      'file.pdf',
      expect.stringMatching(/^nota-fiscal-.+\.pdf$/),
      expect.stringMatching(/^receipt-\d+\.pdf$/),
    ]);
  }, 180_000);
});
