// The request path as production runs it (answers not validated on the way out): each operation's
// chain holds only its own steps, and what it skips changes no verdict.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer({ config: { validateResponses: false } });
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const call = (path: string, init: RequestInit & { token?: string | null } = {}) => {
  const { token = acme.token, ...rest } = init;
  return fetch(server.baseUrl + path, {
    ...rest,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(rest.headers ?? {}) },
  });
};

describe('one chain per operation, production settings', () => {
  it('when a list without parameters is called bare, then 200 with its ETag, Content-Length and JSON type', async () => {
    const { data } = await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Pipeline' } });
    const res = await call('/cost-centers/v1/cost-centers');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text).items.map((c: { id: string }) => c.id)).toContain(data!.id);
    const again = await call('/cost-centers/v1/cost-centers', {
      headers: { 'If-None-Match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('when the same list gets an unknown or bracketed query parameter, then it is still validated: 400', async () => {
    const unknown = await call('/cost-centers/v1/cost-centers?colour=red');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ param: 'colour' });
    expect((await call('/cost-centers/v1/cost-centers?status[]=1')).status).toBe(400);
  });

  it('when a declared header is sent malformed, then the request is validated: 400 names it', async () => {
    const res = await call('/cost-centers/v1/cost-centers', { headers: { 'If-None-Match': 'x'.repeat(2000) } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { param?: string; message: string };
    expect(`${body.param} ${body.message}`.toLowerCase()).toContain('if-none-match');
  });

  it('when the path is unknown, the method is not the path’s, or the token is missing, then 404, 405 with Allow, 401 — in that order', async () => {
    expect((await call('/cost-centers/v1/nope', { token: null })).status).toBe(404);
    const notAllowed = await call('/cost-centers/v1/cost-centers', { method: 'PUT', token: null });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.get('allow')).toBe('GET, POST, HEAD');
    expect((await call('/cost-centers/v1/cost-centers', { token: null })).status).toBe(401);
  });

  it('when HEAD is sent for a GET, then the GET’s status and headers, no body', async () => {
    const res = await call('/cost-centers/v1/cost-centers', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await res.text()).toBe('');
  });

  it('when a write is sent with an empty JSON body, then 400 from validation, never a handler error', async () => {
    const { data } = await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Empty body' } });
    const res = await call(`/cost-centers/v1/cost-centers/${data!.id}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', 'Content-Length': '0' },
    });
    expect(res.status).toBe(400);
  });
});
