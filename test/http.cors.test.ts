// CORS: browser applications on the allowed origins can call the API; preflights are answered
// before authentication with the allowed methods and headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originAllowed } from '../server/http/mechanisms/cors.js';
import { loadConfig } from '../server/config.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let sandbox: TestServer;
let restricted: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  sandbox = await startTestServer();
  restricted = await startTestServer({ config: { corsOrigins: ['https://app.acme.example'] } });
  acme = await sandbox.newCompany();
});
afterAll(async () => Promise.all([sandbox.close(), restricted.close()]));

const preflight = (server: TestServer, origin: string, method = 'PATCH') =>
  fetch(`${server.baseUrl}/statements/v1/banking/1`, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization,content-type,x-request-id',
    },
  });

describe('CORS in the sandbox', () => {
  it('when a page on http://localhost:3000 sends a preflight, then it is answered 204 with the origin, methods, headers and no token asked', async () => {
    const res = await preflight(sandbox, 'http://localhost:3000');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-request-id');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('when a page on http://127.0.0.1:5173 calls with a token, then the answer names the origin and exposes X-Request-Id, RateLimit and RateLimit-Policy', async () => {
    const res = await fetch(`${sandbox.baseUrl}/statements/v1/banking?limit=1`, {
      headers: { Origin: 'http://127.0.0.1:5173', Authorization: `Bearer ${acme.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(',');
    for (const header of ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After'])
      expect(exposed).toContain(header);
  });

  it('when a page on another host sends a preflight, then no CORS header allows it', async () => {
    const res = await preflight(sandbox, 'https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS_ORIGINS', () => {
  it('when set, then only the listed origins are allowed', async () => {
    expect((await preflight(restricted, 'https://app.acme.example')).headers.get('access-control-allow-origin')).toBe(
      'https://app.acme.example',
    );
    expect(
      (await preflight(restricted, 'http://localhost:3000')).headers.get('access-control-allow-origin'),
    ).toBeNull();
  });

  it('when read from the environment, then the sandbox allows localhost on any port, production none, and the list replaces both', () => {
    expect(loadConfig({}).corsOrigins).toEqual(['http://localhost:*', 'http://127.0.0.1:*']);
    expect(loadConfig({ NODE_ENV: 'production' }).corsOrigins).toEqual([]);
    expect(
      loadConfig({ NODE_ENV: 'production', CORS_ORIGINS: 'https://a.example, https://b.example/' }).corsOrigins,
    ).toEqual(['https://a.example', 'https://b.example']);
  });

  it.each([
    ['http://localhost:3000', true],
    ['http://localhost', true],
    ['http://localhost.evil.example', false],
    ['http://localhost:3000.evil.example', false],
    ['https://localhost:3000', false],
  ])('when the origin is %s, then the sandbox default allows it: %s', (origin, allowed) => {
    expect(originAllowed(origin, ['http://localhost:*'])).toBe(allowed);
  });
});
