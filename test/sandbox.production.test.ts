// Production has no sandbox: every /sandbox/ path answers 404 like an unknown path, and the served
// contract does not list them; SANDBOX_HELPERS=true brings them back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { loadConfig } from '../server/config.js';
import { defaultScopes } from '../server/areas/auth/store.js';

let production: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  production = await startTestServer({ config: { production: true, sandboxHelpers: false } });
  acme = await production.newCompany();
});
afterAll(async () => production.close());

describe('the sandbox in production', () => {
  it('when a /sandbox/ path is called, then 404 with the body of an unknown path, before any credential check', async () => {
    const unknown = await fetch(`${production.baseUrl}/nothing/v1/here`);
    for (const [method, path] of [
      ['GET', '/sandbox/v1/clock'],
      ['POST', '/sandbox/v1/clock/advance'],
      ['POST', '/sandbox/v1/banking-transactions'],
      ['POST', '/sandbox/v1/vcns/01JD3R7M5Q2W8E4T6Y1V9K0PZX/authorizations'],
    ] as const) {
      const anonymous = await fetch(`${production.baseUrl}${path}`, { method });
      expect(anonymous.status).toBe(404);
      const authenticated = await fetch(`${production.baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${acme.token}`, 'Content-Type': 'application/json' },
        body: method === 'POST' ? JSON.stringify({ to: '2030-01-01T00:00:00Z' }) : undefined,
      });
      expect(authenticated.status).toBe(404);
      const body = (await authenticated.json()) as { message: string };
      expect(body.message).toBe(((await unknown.clone().json()) as { message: string }).message);
    }
  });

  it('when /openapi.json is served, then it lists no sandbox path, tag or scope', async () => {
    const text = await (await fetch(`${production.baseUrl}/openapi.json`)).text();
    expect(text).not.toMatch(/\/sandbox\/|sandbox:write|"Sandbox/);
    expect(JSON.parse(text).paths['/statements/v1/banking']).toBeDefined();
  });

  it('when NODE_ENV is production, then the helpers are off unless SANDBOX_HELPERS=true, and new clients lack sandbox:write', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).sandboxHelpers).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SANDBOX_HELPERS: 'true' }).sandboxHelpers).toBe(true);
    expect(loadConfig({}).sandboxHelpers).toBe(true);
    expect(defaultScopes(false)).not.toContain('sandbox:write');
    expect(defaultScopes(true)).toContain('sandbox:write');
  });
});

describe('the sandbox elsewhere', () => {
  it('when served outside production, then /openapi.json lists the sandbox paths', async () => {
    const sandbox = await startTestServer();
    try {
      const text = await (await fetch(`${sandbox.baseUrl}/openapi.json`)).text();
      expect(JSON.parse(text).paths['/sandbox/v1/clock/advance']).toBeDefined();
    } finally {
      await sandbox.close();
    }
  });
});
