import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestCompany } from './support/server.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany({ scopes: ['directory:read', 'statements:read'] });
});
afterAll(async () => server.close());

const tokenRequest = (body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body),
  });

describe('createToken', () => {
  it('when the client authenticates with form fields, then it gets a 30-minute bearer token with its scopes', async () => {
    const res = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: acme.clientId,
      client_secret: acme.clientSecret,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 1800, scope: 'directory:read statements:read' });
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('when the client authenticates with HTTP Basic and asks for a subset of scopes, then the token carries only those', async () => {
    const basic = Buffer.from(`${acme.clientId}:${acme.clientSecret}`).toString('base64');
    const res = await tokenRequest(
      { grant_type: 'client_credentials', scope: 'directory:read' },
      { Authorization: `Basic ${basic}` },
    );
    expect(res.status).toBe(200);
    expect((await res.json()).scope).toBe('directory:read');
  });

  it('when the secret is wrong, then 401 invalid_client', async () => {
    const res = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: acme.clientId,
      client_secret: 'nope',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('when the grant type is not client_credentials, then 400 unsupported_grant_type', async () => {
    const res = await tokenRequest({
      grant_type: 'password',
      client_id: acme.clientId,
      client_secret: acme.clientSecret,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('when a scope the client lacks is asked for, then 400 invalid_scope', async () => {
    const res = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: acme.clientId,
      client_secret: acme.clientSecret,
      scope: 'vcn:reveal',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('when grant_type is missing, then 400 invalid_request', async () => {
    const res = await tokenRequest({ client_id: acme.clientId, client_secret: acme.clientSecret });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });
});
