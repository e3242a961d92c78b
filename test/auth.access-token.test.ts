import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestCompany } from './support/server.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany({ scopes: ['directory:read', 'statements:read'] });
});
afterAll(async () => server.close());

const tokenAt = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body),
  });
const basic = () => ({
  Authorization: `Basic ${Buffer.from(`${acme.clientId}:${acme.clientSecret}`).toString('base64')}`,
});

describe('createAccessToken', () => {
  it('when the client authenticates with HTTP Basic at the live path, then its token works on the API', async () => {
    const res = await tokenAt('/oauth/v1/access-token', { grant_type: 'client_credentials' }, basic());
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 1800, scope: 'directory:read statements:read' });
    const { data, response } = await server.apiWithToken(body.access_token).GET('/cost-centers/v1/cost-centers');
    expect(response.status).toBe(200);
    expect(data?.items).toEqual([]);
  });

  it('when both paths get the same requests, then they answer the same statuses and bodies', async () => {
    const requests: [Record<string, string>, Record<string, string>][] = [
      [{ grant_type: 'client_credentials', scope: 'directory:read' }, basic()],
      [{ grant_type: 'client_credentials', scope: 'vcn:write' }, basic()],
      [{ grant_type: 'password' }, basic()],
      [{ grant_type: 'client_credentials', client_id: acme.clientId, client_secret: 'nope' }, {}],
      [{ grant_type: 'client_credentials', client_id: acme.clientId }, basic()],
    ];
    for (const [body, headers] of requests) {
      const [a, b] = await Promise.all([
        tokenAt('/oauth/token', body, headers),
        tokenAt('/oauth/v1/access-token', body, headers),
      ]);
      expect(b.status).toBe(a.status);
      const [left, right] = [await a.json(), await b.json()];
      if (a.status === 200) {
        expect({ ...right, access_token: 'x' }).toEqual({ ...left, access_token: 'x' });
        expect(right.access_token).not.toBe(left.access_token);
      } else expect({ ...right, requestId: 'x' }).toEqual({ ...left, requestId: 'x' });
    }
  });

  it('when Basic credentials are wrong at the live path, then 401 invalid_client with a Basic challenge', async () => {
    const wrong = { Authorization: `Basic ${Buffer.from(`${acme.clientId}:nope`).toString('base64')}` };
    const res = await tokenAt('/oauth/v1/access-token', { grant_type: 'client_credentials' }, wrong);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });
});
