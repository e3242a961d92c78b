// Load shedding: while the event loop is behind, API requests get 503 + Retry-After at once.
// The lag is injected, so these tests decide when the server counts as overloaded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import type { LagProbe } from '../server/http/ops/overload.js';

let lag = 0;
const probe = (): LagProbe => ({ lagMs: () => lag, stop: () => undefined });

describe('load shedding', () => {
  let server: TestServer;
  let acme: TestCompany;
  beforeAll(async () => {
    server = await startTestServer({ config: { overloadMaxLagMs: 100 }, lagProbe: probe });
    acme = await server.newCompany();
  });
  afterAll(() => server.close());

  it('when the event loop is more behind than the threshold, then requests get 503 with Retry-After in the error body and nothing is written', async () => {
    lag = 250;
    const { response, error } = await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Shed' } });
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toBe('1');
    expect(error).toMatchObject({
      error: 'Service Unavailable',
      code: 503,
      details: [],
      requestId: response.headers.get('X-Request-Id'),
    });
    lag = 0;
    const list = await acme.api.GET('/cost-centers/v1/cost-centers');
    expect(list.response.status).toBe(200);
    expect(JSON.stringify(list.data)).not.toContain('Shed');
  });

  it('when the lag is at the threshold or below, then requests are served', async () => {
    lag = 100;
    expect((await acme.api.GET('/cost-centers/v1/cost-centers')).response.status).toBe(200);
    lag = 0;
  });

  it('when shedding, then the health check still answers', async () => {
    lag = 1_000;
    const health = await fetch(`${server.baseUrl}/health`);
    expect(health.status).toBe(200);
    expect((await acme.api.GET('/users/v1/users')).response.status).toBe(503);
    lag = 0;
  });

  it('when a virtual-card operation is shed, then it gets the virtual-card error body', async () => {
    lag = 1_000;
    const response = await fetch(`${server.baseUrl}/credit-cards/v1/vcns`, {
      headers: { Authorization: `Bearer ${acme.token}` },
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      code: 'service-unavailable',
      message: 'The server is overloaded, retry shortly',
    });
    lag = 0;
  });
});

describe('load shedding turned off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      config: { overloadMaxLagMs: 0 },
      lagProbe: () => ({ lagMs: () => 10_000, stop: () => undefined }),
    });
  });
  afterAll(() => server.close());

  it('when the threshold is 0, then a large lag sheds nothing', async () => {
    const acme = await server.newCompany();
    expect((await acme.api.GET('/cost-centers/v1/cost-centers')).response.status).toBe(200);
  });
});
