// Production is not the sandbox (a real `finance serve` with NODE_ENV=production): it starts empty
// and quiet, refuses a bad or missing setting naming it, writes only JSON lines, names company and
// client on access lines, issues no simulated card; and credentials rotate without an outage.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../server/db/database.js';
import { openStore } from '../server/db/store.js';
import { listCompanies } from '../server/areas/auth/store.js';
import { freshDatabase } from './support/database.js';
import {
  apiFor,
  productionEnv,
  productionSecrets,
  sharedCompany,
  startServerProcess,
  type ServerProcess,
} from './support/processes.js';
import { expectVcnError, fund, hotelRequest } from './support/factories/vcn.js';
import { financeInProcess } from './support/cli.js';

/** `finance …args` in this process (the commands here need no process of their own): its stdout; a failure rejects with its code and output. */
async function finance(env: Record<string, string>, ...args: string[]): Promise<string> {
  const result = await financeInProcess(args, env);
  if (result.code !== 0) throw Object.assign(new Error(result.stderr), { code: result.code, stdout: result.stdout });
  return result.stdout;
}

/** `finance serve` that must refuse to start: its exit code and everything it wrote. */
function refusedStart(location: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('node', ['bin/finance.js', 'serve', '--db', location, '--port', '0'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const token = async (baseUrl: string, clientId: string, clientSecret: string) =>
  fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });

let dir: string;
let location: string;
let db: Db;
let env: Record<string, string>;
let server: ServerProcess;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'production-'));
  location = await freshDatabase(dir);
  env = await productionEnv({ LOG_LEVEL: 'info' });
  server = await startServerProcess(location, { env });
  db = (await openStore(location)).db;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('a production start', () => {
  it('when it starts on an empty database, then it creates no company, prints no secret and says how to create one', async () => {
    expect(await listCompanies(db)).toEqual([]);
    // The hint is the line after the one the start waited for: it may reach this process a moment later.
    await vi.waitFor(() => expect(server.stdout()).toContain('finance company create'));
    const lines = jsonLines(server.stdout());
    expect(lines.map((l) => l.msg)).toContain('Company Finance Service listening');
    expect(server.stdout()).toContain('finance company create');
    expect(server.stdout()).not.toMatch(/client_secret|sk_/);
    for (const name of ['CURSOR_SECRET', 'URL_SIGNING_SECRET', 'PAN_ENCRYPTION_KEY', 'CVV_KEY'])
      expect(server.stdout()).not.toContain(env[name]);
    expect(server.stderr()).toBe('');
    expect((await fetch(`${server.baseUrl}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/docs`)).status).toBe(200);
  });

  it('when the server secrets are missing, then it refuses to start naming every one, in one JSON line', async () => {
    const refused = await refusedStart(join(dir, 'none.sqlite'), { NODE_ENV: 'production' });
    expect(refused.code).not.toBe(0);
    const [line, ...rest] = jsonLines(refused.stderr);
    expect(rest).toEqual([]);
    for (const name of [
      'CURSOR_SECRET',
      'URL_SIGNING_SECRET',
      'PAN_ENCRYPTION_KEY',
      'CVV_KEY',
      'IDEMPOTENCY_ENCRYPTION_KEY',
    ])
      expect(line?.msg).toContain(name);
  });

  it('when PORT=abc or RATE_LIMIT_PER_MINUTE=-5 or CARD_ISSUER=simulated, then it refuses to start naming the variable', async () => {
    const secrets = productionSecrets();
    const port = await refusedStart(join(dir, 'port.sqlite'), { ...secrets, NODE_ENV: 'production', PORT: 'abc' });
    expect(port.code).not.toBe(0);
    expect(jsonLines(port.stderr)[0]?.msg).toMatch(/PORT: must be a whole number/);
    const rate = await refusedStart(join(dir, 'rate.sqlite'), { RATE_LIMIT_PER_MINUTE: '-5' });
    expect(rate.code).not.toBe(0);
    expect(rate.stderr).toMatch(/^finance: RATE_LIMIT_PER_MINUTE: must be a whole number .*\(got "-5"\)\n$/);
    const issuer = await refusedStart(join(dir, 'issuer.sqlite'), {
      ...secrets,
      NODE_ENV: 'production',
      CARD_ISSUER: 'simulated',
    });
    expect(issuer.code).not.toBe(0);
    expect(issuer.stderr).toContain('CARD_ISSUER');
  });

  it('when an authenticated request is answered, then every stdout line is JSON, the access line names operation, route, company and client, and /health is not logged', async () => {
    const acme = await sharedCompany(db, [server]);
    const grant = await (await fetch(`${server.baseUrl}/health`)).json();
    expect(grant).toEqual({ status: 'ok' });
    const listed = await acme.apis[0]!.GET('/cost-centers/v1/cost-centers');
    expect(listed.response.status).toBe(200);
    const requestId = listed.response.headers.get('X-Request-Id');
    await new Promise((resolve) => setTimeout(resolve, 600)); // the log writer flushes every 250 ms
    const lines = jsonLines(server.stdout());
    const access = lines.find((l) => (l.req as { id?: string } | undefined)?.id === requestId);
    expect(access).toMatchObject({
      operationId: 'listCostCenters',
      route: '/cost-centers/v1/cost-centers',
      companyId: acme.companyId,
      clientId: expect.stringMatching(/^cli_/),
      res: { statusCode: 200 },
    });
    expect(JSON.stringify(lines)).not.toContain(acme.token);
    expect(lines.some((l) => (l.req as { url?: string } | undefined)?.url === '/health')).toBe(false);
  });

  it('when a card is requested without a configured issuer, then it answers 503 vcn-provider-unavailable and issues nothing', async () => {
    const acme = await sharedCompany(db, [server]);
    await fund(db, acme.companyId);
    expectVcnError(
      await acme.apis[0]!.POST('/credit-cards/v1/vcns', { body: hotelRequest() }),
      503,
      'vcn-provider-unavailable',
    );
    const listed = await acme.apis[0]!.GET('/credit-cards/v1/vcns');
    expect(listed.data?.items).toEqual([]);
  });
});

describe('credentials with a lifecycle', () => {
  it('when a client is rotated with a grace, then both secrets work until it ends, then only the new; client list shows lastUsedAt', async () => {
    const company = JSON.parse(
      await finance(
        { NODE_ENV: 'production' },
        'company',
        'create',
        '--db',
        location,
        '--name',
        'Rotation Ltda',
        '--json',
      ),
    ) as { companyId: string; clientId: string; clientSecret: string };
    const before = JSON.parse(await finance({}, 'client', 'list', '--db', location, '--json')) as {
      clients: Array<{ clientId: string; lastUsedAt: string | null }>;
    };
    expect(before.clients.find((c) => c.clientId === company.clientId)?.lastUsedAt).toBeNull();

    const oldToken = await token(server.baseUrl, company.clientId, company.clientSecret);
    expect(oldToken.status).toBe(200);
    const { access_token: issuedBefore } = (await oldToken.json()) as { access_token: string };
    const rotated = JSON.parse(
      await finance({}, 'client', 'rotate', '--db', location, '--client', company.clientId, '--grace', '3s', '--json'),
    ) as { clientSecret: string; previousSecretExpiresAt: string };
    expect(Date.parse(rotated.previousSecretExpiresAt)).toBeGreaterThan(Date.now());

    const withOld = await token(server.baseUrl, company.clientId, company.clientSecret);
    expect(withOld.status).toBe(200);
    expect(((await withOld.json()) as { expires_in: number }).expires_in).toBeLessThanOrEqual(3);
    expect((await token(server.baseUrl, company.clientId, rotated.clientSecret)).status).toBe(200);
    const during = await apiFor(server.baseUrl, issuedBefore).GET('/cost-centers/v1/cost-centers');
    expect(during.response.status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, Date.parse(rotated.previousSecretExpiresAt) - Date.now() + 200));
    expect((await token(server.baseUrl, company.clientId, company.clientSecret)).status).toBe(401);
    expect((await token(server.baseUrl, company.clientId, rotated.clientSecret)).status).toBe(200);
    const after = await apiFor(server.baseUrl, issuedBefore).GET('/cost-centers/v1/cost-centers');
    expect(after.response.status).toBe(401);

    const listed = await finance({}, 'client', 'list', '--db', location);
    const line = listed.split('\n').find((l) => l.startsWith(company.clientId));
    expect(line).toMatch(/last used \d{4}-\d\d-\d\dT/);
  }, 30_000);

  it('when a client is rotated without a grace, then the old secret stops at once', async () => {
    const company = JSON.parse(
      await finance({}, 'company', 'create', '--db', location, '--name', 'Abrupt Ltda', '--json'),
    ) as { clientId: string; clientSecret: string };
    await finance({}, 'client', 'rotate', '--db', location, '--client', company.clientId);
    expect((await token(server.baseUrl, company.clientId, company.clientSecret)).status).toBe(401);
  });
});

describe('the configuration commands', () => {
  it('when `finance config` runs, then it prints every setting with secrets redacted and names what serve would refuse', async () => {
    const secrets = productionSecrets();
    const printed = JSON.parse(
      await finance({ ...secrets, NODE_ENV: 'production', PORT: '9000', DATABASE_URL: location }, 'config', '--json'),
    ) as {
      settings: Array<{ name: string; value: string | null; source: string }>;
      problems: string[];
    };
    const byName = new Map(printed.settings.map((s) => [s.name, s]));
    expect(byName.get('PORT')).toEqual({ name: 'PORT', value: '9000', source: 'environment' });
    expect(byName.get('CURSOR_SECRET')?.value).toBe('[redacted]');
    expect(byName.get('CARD_ISSUER')?.value).toBe('none');
    expect(JSON.stringify(printed)).not.toContain(secrets.CURSOR_SECRET);
    expect(printed.problems).toEqual([]);
    const missing = await finance({ NODE_ENV: 'production' }, 'config', '--json').catch(
      (err: { code: number; stdout: string }) => err,
    );
    expect(typeof missing === 'string' ? 0 : missing.code).toBe(1);
    const { problems } = JSON.parse(typeof missing === 'string' ? missing : missing.stdout) as { problems: string[] };
    expect(problems.join('\n')).toContain('IDEMPOTENCY_ENCRYPTION_KEY');
  });

  it('when `finance secrets generate` runs, then it prints one fresh 32-byte hex value per server secret', async () => {
    const block = await finance({}, 'secrets', 'generate');
    const lines = block.trim().split('\n');
    expect(lines.map((l) => l.split('=')[0])).toEqual([
      'CURSOR_SECRET',
      'URL_SIGNING_SECRET',
      'PAN_ENCRYPTION_KEY',
      'CVV_KEY',
      'IDEMPOTENCY_ENCRYPTION_KEY',
    ]);
    for (const line of lines) expect(line).toMatch(/^[A-Z_]+=[0-9a-f]{64}$/);
  });

  it('when `finance seed --demo` runs, then the demo company exists with its first client', async () => {
    const demoDb = await freshDatabase(dir, 'demo.sqlite');
    const demo = JSON.parse(await finance({}, 'seed', '--demo', '--db', demoDb, '--json')) as {
      companyId: string;
      clientSecret: string;
    };
    expect(demo.clientSecret).toMatch(/^sk_/);
    const store = await openStore(demoDb);
    try {
      expect((await listCompanies(store.db)).map((c) => c.name)).toEqual(['Demo Comércio e Serviços Ltda']);
    } finally {
      await store.close();
    }
  }, 60_000);
});
