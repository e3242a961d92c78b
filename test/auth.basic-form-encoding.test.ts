import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestCompany } from './support/server.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany({ scopes: ['statements:read'] });
});
afterAll(async () => server.close());

const tokenWithBasic = (user: string, pass: string) =>
  fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${btoa(`${user}:${pass}`)}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });

// RFC 6749 §2.3.1: id and secret are form-urlencoded inside Basic, as OAuth libraries send them.
const formEncoded = (s: string) =>
  encodeURIComponent(s).replace(/[-_.!~*'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

describe('client authentication with HTTP Basic', () => {
  it('when id and secret are form-urlencoded inside Basic, then the token is issued', async () => {
    expect(formEncoded(acme.clientId)).not.toBe(acme.clientId);
    const res = await tokenWithBasic(formEncoded(acme.clientId), formEncoded(acme.clientSecret));
    expect(res.status).toBe(200);
  });

  it('when id and secret are sent raw inside Basic, then the token is issued as before', async () => {
    const res = await tokenWithBasic(acme.clientId, acme.clientSecret);
    expect(res.status).toBe(200);
  });

  it('when the encoded secret decodes to another value, then the client is refused', async () => {
    const res = await tokenWithBasic(acme.clientId, `${acme.clientSecret}%41`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });
});
