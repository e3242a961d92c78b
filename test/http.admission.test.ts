// Admission control (OVERLOAD_MAX_IN_FLIGHT): with the cap at 1 and one request held in flight (its
// body still arriving), the next request is answered 503 with Retry-After at once, in its
// operation's error body; the probes still answer; the slot is free again once the held request is
// answered or its client leaves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type ClientRequest } from 'node:http';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer({ config: { overloadMaxInFlight: 1 } });
  acme = await server.newCompany();
});
afterAll(() => server.close());

const inFlight = async () =>
  Number(/^finance_requests_in_flight (\d+)/m.exec(await (await fetch(`${server.baseUrl}/metrics`)).text())?.[1]);

/** A create whose body has not all arrived: the server holds it until the rest comes or the client leaves. */
async function heldCreate(): Promise<{ req: ClientRequest; rest: string; answer: Promise<number> }> {
  const body = JSON.stringify({ name: 'Held' });
  const { port } = new URL(server.baseUrl);
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/cost-centers/v1/cost-centers',
    headers: {
      Authorization: `Bearer ${acme.token}`,
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
    },
  });
  const answer = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 5));
  for (let i = 0; i < 200 && (await inFlight()) !== 1; i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(await inFlight()).toBe(1);
  return { req, rest: body.slice(5), answer };
}

describe('admission control', () => {
  it('when the cap is reached, then the next request gets 503 with Retry-After at once and changes nothing; the held one completes', async () => {
    const held = await heldCreate();
    const refused = await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Refused' } });
    expect(refused.response.status).toBe(503);
    expect(refused.response.headers.get('Retry-After')).toBe('1');
    expect(refused.error).toMatchObject({
      error: 'Service Unavailable',
      code: 503,
      reason: 'service_unavailable',
      requestId: refused.response.headers.get('X-Request-Id'),
    });
    // The probes are neither counted nor refused.
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/ready`)).status).toBe(200);
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/^finance_requests_in_flight 1$/m);
    expect(metrics).toMatch(/^finance_requests_shed_total 1$/m);

    held.req.end(held.rest);
    expect(await held.answer).toBe(201);
    const names = (await acme.api.GET('/cost-centers/v1/cost-centers')).data?.items.map((c) => c.name);
    expect(names).toContain('Held');
    expect(names).not.toContain('Refused');
  });

  it('when a virtual-card operation is refused, then it gets the virtual-card error body', async () => {
    const held = await heldCreate();
    const response = await fetch(`${server.baseUrl}/credit-cards/v1/vcns`, {
      headers: { Authorization: `Bearer ${acme.token}` },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toBe('1');
    expect(await response.json()).toMatchObject({
      code: 'service-unavailable',
      message: 'The server is overloaded, retry shortly',
    });
    held.req.destroy();
    await held.answer.catch(() => undefined);
  });

  it('when the held request’s client leaves, then its slot is free again', async () => {
    const held = await heldCreate();
    held.req.destroy();
    await held.answer.catch(() => undefined);
    for (let i = 0; i < 200 && (await inFlight()) !== 0; i += 1) await new Promise((r) => setTimeout(r, 10));
    expect((await acme.api.GET('/cost-centers/v1/cost-centers')).response.status).toBe(200);
  });
});
