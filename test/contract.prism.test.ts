// Another ecosystem's validator reads the contract right: Stoplight Prism, in proxy mode in front of
// the real server, checks a scripted set of calls (requests and responses, errors included) against
// the served public contract and flags any violation in an `sl-violations` header. Amounts such as
// 1297.07 must pass (no float `multipleOf` to trip on); nothing it flags is tolerated.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';
import { freePort } from './support/ports.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PRISM = join(ROOT, 'node_modules', '.bin', 'prism');
const dir = mkdtempSync(join(tmpdir(), 'prism-'));
let proxy = '';

let server: TestServer;
let acme: TestCompany;
let prism: ChildProcess;
let token = '';

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  // Amounts whose float division by 0.01 is not an integer (1297.07, 0.07, 19.99).
  await createBankingTransactions(server.db, acme.companyId, account, [
    { brl_amount_minor: 129_707, total_amount_minor: 129_707 },
    { brl_amount_minor: 7, total_amount_minor: 7 },
    { brl_amount_minor: 1_999, total_amount_minor: 2_101, iof_amount_minor: 102, status: 3 },
  ]);
  await createCreditCardTransactions(server.db, acme.companyId, [
    { amount_minor: 129_707, brl_amount_minor: 129_707 },
    {},
  ]);
  const contract = join(dir, 'openapi.json');
  writeFileSync(contract, await (await fetch(`${server.baseUrl}/openapi.json`)).text());
  // Another process may take the port between the probe and Prism's start: try a few.
  for (let tries = 1; ; tries++) {
    const port = await freePort();
    proxy = `http://127.0.0.1:${port}`;
    prism = spawn(PRISM, ['proxy', contract, server.baseUrl, '--port', String(port), '--host', '127.0.0.1'], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let log = '';
    prism.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    prism.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    let up = false;
    for (let i = 0; i < 600 && prism.exitCode === null && !up; i++) {
      up = await fetch(`${proxy}/oauth/token`, { method: 'POST' }).then(
        () => true,
        () => false,
      );
      if (!up) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (up) break;
    prism.kill();
    if (tries === 3 || !log.includes('EADDRINUSE')) throw new Error(`prism did not start:\n${log}`);
  }
}, 120_000);
afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((resolve) => prism.once('exit', resolve));
    prism.kill('SIGTERM');
    await exited;
  }
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Call {
  name: string;
  method?: string;
  path: string;
  body?: unknown;
  status: number;
  auth?: 'none';
}

/** Sends `call` through Prism; answers the status and what Prism flagged. */
async function through({ method = 'GET', path, body, auth }: Call) {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (auth !== 'none') headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(proxy + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await res.text();
  return { status: res.status, violations: res.headers.get('sl-violations'), body: text };
}

describe('Prism in proxy mode in front of the server', () => {
  it('when a token is requested through it, then nothing is flagged', async () => {
    const res = await fetch(`${proxy}/oauth/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${btoa(`${acme.clientId}:${acme.clientSecret}`)}`,
      },
      body: 'grant_type=client_credentials',
    });
    expect(res.headers.get('sl-violations')).toBeNull();
    expect(res.status).toBe(200);
    token = ((await res.json()) as { access_token: string }).access_token;
  });

  const calls: Call[] = [
    {
      name: 'banking list with 2-decimal amounts',
      path: '/statements/v1/banking?limit=10&sorting=brlAmount:desc',
      status: 200,
    },
    { name: 'banking list filtered by status', path: '/statements/v1/banking?status=2,3&amountGt=0.07', status: 200 },
    { name: 'credit-card list', path: '/statements/v1/credit-card?limit=5', status: 200 },
    { name: 'balance', path: '/accounts/v1/balance', status: 200 },
    { name: 'bills', path: '/credit-cards/v1/bills', status: 200 },
    {
      name: 'create a cost center',
      method: 'POST',
      path: '/cost-centers/v1/cost-centers',
      body: { name: 'Prism' },
      status: 201,
    },
    { name: 'cost centers', path: '/cost-centers/v1/cost-centers', status: 200 },
    { name: 'suppliers', path: '/suppliers/v1/suppliers?limit=5', status: 200 },
    { name: 'categories', path: '/categories/v1/categories?limit=5', status: 200 },
    { name: 'users', path: '/users/v1/users', status: 200 },
    { name: 'roles', path: '/users/v1/roles', status: 200 },
    {
      name: 'a 404 in the error body',
      path: '/cost-centers/v1/cost-centers/3f0c7a52-9a51-4c1e-8a4e-0b1f5d2c6e7a',
      status: 404,
    },
    {
      name: 'a 409 in the error body',
      method: 'POST',
      path: '/cost-centers/v1/cost-centers',
      body: { name: 'Prism' },
      status: 409,
    },
  ];
  for (const call of calls) {
    it(`when ${call.name} goes through it, then ${call.status} and nothing is flagged`, async () => {
      const { status, violations, body } = await through(call);
      expect(violations, body).toBeNull();
      expect(status, body).toBe(call.status);
    });
  }
});
