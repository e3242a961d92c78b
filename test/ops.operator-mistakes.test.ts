// An operator's small mistakes are refused or named, never absorbed: the store chosen on purpose,
// production or the sandbox chosen on purpose (NODE_ENV one of its values, SANDBOX=true on PostgreSQL),
// every bad setting named at once (with the likely name of a misspelled one), `finance config` as a
// deploy gate, links naming the host each request came to, refusals logged with who and from where,
// and VCN issuance without an issuer answered 503 before anything else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { settingsProblems } from '../server/settings.js';
import { unknownSettings } from '../server/settings-typos.js';
import { locationProblem, withoutPassword } from '../server/db/location.js';
import { createLogger } from '../server/http/pipeline/logger.js';
import { productionSecrets } from './support/processes.js';
import { financeInProcess } from './support/cli.js';
import { startTestServer, type TestServer } from './support/server.js';
import { expectVcnError, hotelRequest } from './support/factories/vcn.js';

const run = promisify(execFile);

/** `finance …` with this environment (not the test runner's NODE_ENV): exit code and everything written. */
async function finance(env: Record<string, string>, ...args: string[]) {
  const base = { PATH: process.env.PATH ?? '', ...env };
  try {
    const { stdout, stderr } = await run('node', ['bin/finance.js', ...args], { env: base, timeout: 30_000 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('the store chosen on purpose', () => {
  it('when a location has an unknown scheme or a PostgreSQL URL names no database, then it is refused; a file path or a full URL is not', () => {
    expect(locationProblem('postgress://u:p@db.internal/finance')).toMatch(/^unknown scheme postgress:\/\//);
    expect(locationProblem('mysql://u:p@db.internal/finance')).toMatch(/^unknown scheme mysql:\/\//);
    expect(locationProblem('postgres://u:p@db.internal:5432')).toMatch(/^names no database/);
    expect(locationProblem('postgres://u:p@db.internal:5432/')).toMatch(/^names no database/);
    expect(locationProblem('postgres://u:p@db.internal:5432/finance')).toBeUndefined();
    expect(locationProblem('./data/finance.sqlite')).toBeUndefined();
    expect(withoutPassword('postgres://finance:s3cret@db.internal/finance')).toBe(
      'postgres://finance:***@db.internal/finance',
    );
  });

  it('when production has no DATABASE_URL, a postgress:// one or one without a database, then serve refuses naming DATABASE_URL', async () => {
    const secrets = productionSecrets();
    const cases: Array<Record<string, string>> = [
      {},
      { DATABASE_URL: 'postgress://finance:s3cret@127.0.0.1/finance' },
      { DATABASE_URL: 'postgres://finance:s3cret@127.0.0.1:5432' },
    ];
    const results = await Promise.all(
      cases.map((extra) => finance({ ...secrets, NODE_ENV: 'production', ...extra }, 'serve', '--port', '0')),
    );
    for (const { code, output } of results) {
      expect(code).toBe(1);
      expect(output).toContain('DATABASE_URL: ');
      expect(output).not.toContain('s3cret');
    }
    expect(results[1]!.output).toContain('unknown scheme postgress://');
    expect(results[2]!.output).toContain('names no database');
  }, 60_000);
});

describe('production or the sandbox, chosen on purpose', () => {
  it('when NODE_ENV is misspelled, in another case or with a space, then config --check, serve and client create refuse it naming production', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finance-mode-'));
    const db = join(dir, 'finance.sqlite');
    try {
      for (const mode of ['prodution', 'Production', 'prod', 'production ']) {
        const env = { NODE_ENV: mode, DATABASE_URL: db };
        const check = await financeInProcess(['config', '--check'], env);
        expect(check.code).toBe(1);
        expect(check.stdout).toContain(
          `NODE_ENV: must be production (or development, test or unset: the sandbox); did you mean production? (got ${JSON.stringify(mode)})`,
        );
        expect(check.stdout).not.toContain('configuration ok');
        const serve = await financeInProcess(['serve', '--port', '0'], env);
        expect(serve.code).toBe(1);
        expect(serve.stderr).toContain('NODE_ENV: must be production');
        const client = await financeInProcess(['client', 'create', '--company', 'x', '--scopes', 'users:read'], env);
        expect(client.stderr).toContain('NODE_ENV: must be production');
      }
      // Nothing was opened, so nothing was created or seeded.
      expect(existsSync(db)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the sandbox is started on PostgreSQL without SANDBOX=true, or production with it, then serve refuses saying what to set', async () => {
    const url = 'postgres://finance@127.0.0.1:9/finance';
    const sandbox = await financeInProcess(['serve', '--db', url, '--port', '0'], { NODE_ENV: 'development' });
    expect(sandbox.code).toBe(1);
    expect(sandbox.stderr).toContain(
      'DATABASE_URL: the sandbox (NODE_ENV is development) runs on PostgreSQL only with SANDBOX=true',
    );
    expect(sandbox.stderr).toContain('set NODE_ENV=production for production');
    const gate = await financeInProcess(['config', '--check'], { NODE_ENV: 'test', DATABASE_URL: url });
    expect(gate.code).toBe(1);
    expect(gate.stdout).toContain('runs on PostgreSQL only with SANDBOX=true');
    const both = await financeInProcess(['config', '--check'], {
      ...productionSecrets(),
      NODE_ENV: 'production',
      DATABASE_URL: url,
      SANDBOX: 'true',
    });
    expect(both.code).toBe(1);
    expect(both.stdout).toContain('SANDBOX: true is the sandbox, refused with NODE_ENV=production');
  });
});

describe('every setting error at once', () => {
  it('when PORT, WORKERS and LOG_LEVEL are all bad, then the problems name all three', () => {
    const problems = settingsProblems({ PORT: 'abc', WORKERS: '0', LOG_LEVEL: 'loud' });
    expect(problems.map((p) => p.split(':')[0])).toEqual(['PORT', 'WORKERS', 'LOG_LEVEL']);
  });

  it('when a variable is a near miss of a setting, then it is named with the likely one; unrelated ones are not', () => {
    expect(
      unknownSettings({
        DATABSE_URL: 'x',
        PORTT: '1',
        FINANCE_CLIENTID: 'x',
        PGPORT: '5432',
        HOME: '/root',
        HOSTNAME: 'h',
      }),
    ).toEqual([
      'DATABSE_URL: not a setting of this service; did you mean DATABASE_URL?',
      'FINANCE_CLIENTID: not a setting of this service; did you mean FINANCE_CLIENT_ID?',
      'PORTT: not a setting of this service; did you mean PORT?',
    ]);
  });

  it('when `finance config --check` runs on bad settings, then it exits 1 naming each and the misspelled variable', async () => {
    const { code, output } = await finance(
      { PORT: 'abc', WORKERS: '0', LOG_LEVEL: 'loud', DATABSE_URL: 'postgres://u:p@h/db' },
      'config',
      '--check',
    );
    expect(code).toBe(1);
    for (const name of ['PORT:', 'WORKERS:', 'LOG_LEVEL:', 'did you mean DATABASE_URL?'])
      expect(output).toContain(name);
  }, 30_000);

  it('when `serve --help` runs with a DATABASE_URL, then its password is not printed', async () => {
    const { code, output } = await finance(
      { DATABASE_URL: 'postgres://finance:s3cret@db.internal/finance' },
      'serve',
      '--help',
    );
    expect(code).toBe(0);
    expect(output).toContain('postgres://finance:***@db.internal/finance');
    expect(output).not.toContain('s3cret');
  }, 30_000);
});

describe('a production server without PUBLIC_BASE_URL', () => {
  let server: TestServer;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    server = await startTestServer({
      config: { production: true, publicBaseUrl: undefined, trustProxy: ['loopback'] },
      logger: createLogger('info', sink),
    });
  });
  afterAll(() => server?.close());

  it('when a resource is created through a trusted proxy, then Location and the served contract name the forwarded host and scheme', async () => {
    const tenant = await server.newCompany();
    const forwarded = { 'X-Forwarded-Host': 'finance.acme.example', 'X-Forwarded-Proto': 'https' };
    const created = await tenant.api.POST('/cost-centers/v1/cost-centers', {
      body: { name: 'Vendas' },
      headers: forwarded,
    });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('location')).toMatch(
      /^https:\/\/finance\.acme\.example\/cost-centers\/v1\/cost-centers\//,
    );
    const contract = (await (await fetch(`${server.baseUrl}/openapi.json`, { headers: forwarded })).json()) as {
      servers: Array<{ url: string }>;
    };
    expect(contract.servers[0]!.url).toBe('https://finance.acme.example');
  });

  it('when the request names its Host, then the served contract names that host, not localhost', async () => {
    const port = new URL(server.baseUrl).port;
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/openapi.json', headers: { Host: `api.internal:${port}` } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject).end();
    });
    expect((JSON.parse(body) as { servers: Array<{ url: string }> }).servers[0]!.url).toBe(
      `http://api.internal:${port}`,
    );
  });

  it('when a token request is refused, then its access line carries the client id tried and the caller address, never the secret', async () => {
    const res = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'cli_tried_here',
        client_secret: 'sk_wrong_secret',
      }),
    });
    expect(res.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = lines.find((l) => l.clientId === 'cli_tried_here');
    expect(line).toMatchObject({ res: { statusCode: 401 } });
    expect(String(line?.remoteAddress)).toMatch(/127\.0\.0\.1$/);
    expect(JSON.stringify(lines)).not.toContain('sk_wrong_secret');
  });

  it('when a card is requested without an issuer, then 503 vcn-provider-unavailable comes before the funding card check, without Retry-After', async () => {
    const tenant = await server.newCompany();
    Object.assign(server.issuer, { configured: false });
    const reply = await tenant.api.POST('/credit-cards/v1/vcns', { body: hotelRequest() });
    expectVcnError(reply, 503, 'vcn-provider-unavailable');
    expect(reply.response.headers.get('retry-after')).toBeNull();
    expect(JSON.stringify(reply.error)).toContain('CARD_ISSUER=none');
  });
});
