// Webhook endpoints: register (secret shown once), read, change, delete, rotate; deliveries list
// and resend are covered end to end in webhooks.delivery.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { webhookUrlProblem } from '../server/areas/webhooks/url-policy.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ deliveries: 'manual' });
});
afterAll(async () => server.close());

const create = (t: TestCompany, body: Record<string, unknown>) =>
  t.api.POST('/webhooks/v1/endpoints', { body: body as { url: string; enabledEvents: ['*'] } });
const byId = (endpointId: string) => ({ params: { path: { endpointId } } });

describe('createWebhookEndpoint', () => {
  it('when the URL and types are valid, then 201 with the secret and Location; reads never show the secret', async () => {
    const acme = await server.newCompany();
    const { data, response } = await create(acme, {
      url: 'http://localhost:3000/hooks',
      enabledEvents: ['vcn.issued', 'vcn.issued'],
      description: 'ERP',
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({
      url: 'http://localhost:3000/hooks',
      enabledEvents: ['vcn.issued'],
      description: 'ERP',
      status: 'enabled',
    });
    expect(data?.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect(response.headers.get('Location')).toBe(`${server.baseUrl}/webhooks/v1/endpoints/${data!.id}`);
    const read = await acme.api.GET('/webhooks/v1/endpoints/{endpointId}', byId(data!.id));
    expect(read.data).not.toHaveProperty('secret');
    const list = await acme.api.GET('/webhooks/v1/endpoints');
    expect(list.data?.items.map((e) => e.id)).toEqual([data!.id]);
  });

  it.each([
    ['a ftp URL', { url: 'ftp://example.com/x', enabledEvents: ['*'] }],
    ['a relative URL', { url: '/hooks', enabledEvents: ['*'] }],
    ['credentials in the URL', { url: 'https://user:pw@example.com/x', enabledEvents: ['*'] }],
    ['an unknown event type', { url: 'https://example.com/x', enabledEvents: ['cost_center.exploded'] }],
    ['"*" with other types', { url: 'https://example.com/x', enabledEvents: ['*', 'vcn.issued'] }],
    ['no event types', { url: 'https://example.com/x', enabledEvents: [] }],
  ])('when the body has %s, then 400 and nothing is registered', async (_case, body) => {
    const acme = await server.newCompany();
    expect((await create(acme, body)).response.status).toBe(400);
    expect((await acme.api.GET('/webhooks/v1/endpoints')).data?.items).toEqual([]);
  });

  it('when private targets are not allowed (production), then loopback, private and link-local URLs are refused and public ones accepted', async () => {
    expect(await webhookUrlProblem('http://127.0.0.1:3000/hooks', false)).toMatch(/public address/);
    expect(await webhookUrlProblem('http://10.1.2.3/hooks', false)).toMatch(/public address/);
    expect(await webhookUrlProblem('http://169.254.169.254/latest', false)).toMatch(/public address/);
    expect(await webhookUrlProblem('http://[::1]/hooks', false)).toMatch(/public address/);
    expect(await webhookUrlProblem('https://93.184.216.34/hooks', false)).toBeUndefined();
    expect(await webhookUrlProblem('http://127.0.0.1:3000/hooks', true)).toBeUndefined();
  });

  it('when the token lacks webhooks:write, then 403', async () => {
    const reader = await server.newCompany({ scopes: ['webhooks:read'] });
    expect((await create(reader, { url: 'https://example.com/x', enabledEvents: ['*'] })).response.status).toBe(403);
  });
});

describe('listWebhookEndpoints', () => {
  it('when there are more endpoints than the page, then pages follow in creation order', async () => {
    const acme = await server.newCompany();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await create(acme, { url: `https://example.com/${i}`, enabledEvents: ['*'] })).data!.id);
    const first = await acme.api.GET('/webhooks/v1/endpoints', { params: { query: { limit: 2 } } });
    const second = await acme.api.GET('/webhooks/v1/endpoints', {
      params: { query: { limit: 2, nextPageStartKey: first.data!.nextPageStartKey! } },
    });
    expect([...first.data!.items, ...second.data!.items].map((e) => e.id)).toEqual(ids);
    expect(second.data?.nextPageStartKey).toBeUndefined();
  });
});

describe('getWebhookEndpoint', () => {
  it('when the endpoint belongs to another company, then 404', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const { data } = await create(acme, { url: 'https://example.com/x', enabledEvents: ['*'] });
    expect((await globex.api.GET('/webhooks/v1/endpoints/{endpointId}', byId(data!.id))).response.status).toBe(404);
  });
});

describe('updateWebhookEndpoint', () => {
  it('when the URL, types and status change, then 200 with them; a null description removes it', async () => {
    const acme = await server.newCompany();
    const { data } = await create(acme, { url: 'https://example.com/x', enabledEvents: ['*'], description: 'old' });
    const { data: updated, response } = await acme.api.PATCH('/webhooks/v1/endpoints/{endpointId}', {
      ...byId(data!.id),
      body: { url: 'https://example.com/y', enabledEvents: ['vcn.issued'], status: 'disabled', description: null },
    });
    expect(response.status).toBe(200);
    expect(updated).toMatchObject({ url: 'https://example.com/y', enabledEvents: ['vcn.issued'], status: 'disabled' });
    expect(updated).not.toHaveProperty('description');
  });

  it('when the body is empty or the URL is not http(s), then 400 and nothing changes', async () => {
    const acme = await server.newCompany();
    const { data } = await create(acme, { url: 'https://example.com/x', enabledEvents: ['*'] });
    expect(
      (await acme.api.PATCH('/webhooks/v1/endpoints/{endpointId}', { ...byId(data!.id), body: {} })).response.status,
    ).toBe(400);
    expect(
      (await acme.api.PATCH('/webhooks/v1/endpoints/{endpointId}', { ...byId(data!.id), body: { url: 'gopher://x' } }))
        .response.status,
    ).toBe(400);
    expect((await acme.api.GET('/webhooks/v1/endpoints/{endpointId}', byId(data!.id))).data?.url).toBe(
      'https://example.com/x',
    );
  });
});

describe('deleteWebhookEndpoint', () => {
  it('when deleted, then 204 and it is gone (404 after)', async () => {
    const acme = await server.newCompany();
    const { data } = await create(acme, { url: 'https://example.com/x', enabledEvents: ['*'] });
    expect((await acme.api.DELETE('/webhooks/v1/endpoints/{endpointId}', byId(data!.id))).response.status).toBe(204);
    expect((await acme.api.GET('/webhooks/v1/endpoints/{endpointId}', byId(data!.id))).response.status).toBe(404);
    expect((await acme.api.DELETE('/webhooks/v1/endpoints/{endpointId}', byId(data!.id))).response.status).toBe(404);
  });
});

describe('rotateWebhookEndpointSecret', () => {
  it('when rotated, then 200 with a new secret (signing with both is covered by the delivery tests)', async () => {
    const acme = await server.newCompany();
    const { data } = await create(acme, { url: 'https://example.com/x', enabledEvents: ['*'] });
    const { data: rotated, response } = await acme.api.POST(
      '/webhooks/v1/endpoints/{endpointId}/rotate-secret',
      byId(data!.id),
    );
    expect(response.status).toBe(200);
    expect(rotated?.secret).toMatch(/^whsec_/);
    expect(rotated?.secret).not.toBe(data!.secret);
  });
});

describe('listWebhookDeliveries', () => {
  it('when the endpoint has no deliveries, then an empty page; of another company, 404', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const { data } = await create(acme, { url: 'https://example.com/x', enabledEvents: ['*'] });
    expect((await acme.api.GET('/webhooks/v1/endpoints/{endpointId}/deliveries', byId(data!.id))).data).toEqual({
      items: [],
    });
    expect(
      (await globex.api.GET('/webhooks/v1/endpoints/{endpointId}/deliveries', byId(data!.id))).response.status,
    ).toBe(404);
  });
});

describe('retryWebhookDelivery', () => {
  it('when the delivery does not exist, then 404; when the endpoint is disabled, then 409', async () => {
    const acme = await server.newCompany();
    const { data } = await create(acme, { url: 'https://example.com/x', enabledEvents: ['*'] });
    const path = { endpointId: data!.id, deliveryId: 'msg_01JD3S2K8Z9Y7X6V5T4S3R2Q1P' };
    expect(
      (await acme.api.POST('/webhooks/v1/endpoints/{endpointId}/deliveries/{deliveryId}/retry', { params: { path } }))
        .response.status,
    ).toBe(404);
    await acme.api.PATCH('/webhooks/v1/endpoints/{endpointId}', { ...byId(data!.id), body: { status: 'disabled' } });
    expect(
      (await acme.api.POST('/webhooks/v1/endpoints/{endpointId}/deliveries/{deliveryId}/retry', { params: { path } }))
        .response.status,
    ).toBe(409);
  });
});
