// Error messages say what to fix, in the caller's terms: no internal route names or schema paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const send = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(server.baseUrl + path, {
    ...init,
    headers: { Authorization: `Bearer ${acme.token}`, ...init.headers },
  });
  return { status: res.status, text: await res.text() };
};
const INTERNAL = /statements\.v1|cost-centers\.v1|oauth\.token|request must have|undefined|request\/|\.:\w+/;

describe('messages name what to send', () => {
  it('when a JSON operation gets text/plain, then 415 names application/json', async () => {
    const { status, text } = await send('/cost-centers/v1/cost-centers', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(status).toBe(415);
    expect(text).toContain('Content-Type: application/json');
    expect(text).not.toMatch(INTERNAL);
  });

  it('when a write that needs a body gets none, then 400 says which media type to send it as', async () => {
    const { status, text } = await send('/statements/v1/banking/1', { method: 'PATCH' });
    expect(status).toBe(400);
    expect(text).toContain('needs a request body sent with Content-Type: application/json');
    expect(text).not.toMatch(INTERNAL);
  });

  it('when the token endpoint gets JSON, then the OAuth error names the form encoding', async () => {
    const res = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const text = await res.text();
    expect(text).toContain('application/x-www-form-urlencoded');
    expect(text).not.toMatch(INTERNAL);
  });

  it('when a path does not exist, then the 404 names no internal route', async () => {
    const { status, text } = await send('/statements/v1/bank');
    expect(status).toBe(404);
    expect(text).not.toMatch(INTERNAL);
  });

  it('when sorting is not one of its values, then 400 lists the six allowed values', async () => {
    const { status, text } = await send('/statements/v1/banking?sorting=description:asc');
    expect(status).toBe(400);
    for (const value of [
      'transactionDate:desc',
      'transactionDate:asc',
      'brlAmount:desc',
      'brlAmount:asc',
      'totalTransactionAmount:desc',
      'totalTransactionAmount:asc',
    ]) {
      expect(text).toContain(value);
    }
    expect(text).not.toContain('pattern');
  });
});
