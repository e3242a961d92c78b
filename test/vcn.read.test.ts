// Reading virtual cards (no card data) and the vcn.* events of their changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  customRequest,
  fundedCompany,
  hotelRequest,
  issue,
  purchase,
  reauthenticate,
  setStatus,
} from './support/factories/vcn.js';

let server: TestServer;
let acme: TestCompany;
beforeAll(async () => {
  server = await startTestServer({ deliveries: 'manual' });
  acme = await fundedCompany(server);
});
afterAll(async () => server.close());

const events = async (tenant: TestCompany) => (await tenant.api.GET('/events/v1/events')).data!.items;

describe('getVcn', () => {
  it('when the card has purchases, then its state, spending and booking block, and never pan or cvv', async () => {
    const card = await issue(acme, customRequest({ limit: { value: 500, currency: 'BRL' }, maxPurchaseQuantity: 3 }));
    await purchase(server, card.vcnId, 120.5);
    const { data, response } = await acme.api.GET('/credit-cards/v1/vcns/{vcnId}', {
      params: { path: { vcnId: card.vcnId } },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      vcnId: card.vcnId,
      type: 'CUSTOM',
      status: 'ACTIVE',
      limit: { value: 500, currency: 'BRL' },
      spent: { value: 120.5, currency: 'BRL' },
      purchaseCount: 1,
      maxPurchaseQuantity: 3,
      customUse: card.customUse,
      last4: card.card.pan.slice(-4),
    });
    expect(JSON.stringify(data)).not.toContain(card.card.pan);
    expect(data).not.toHaveProperty('card');
  });

  it('when the card belongs to another company, then 404 vcn-not-found', async () => {
    const card = await issue(acme, customRequest());
    const globex = await fundedCompany(server);
    const { response, error } = await globex.api.GET('/credit-cards/v1/vcns/{vcnId}', {
      params: { path: { vcnId: card.vcnId } },
    });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'vcn-not-found' });
  });
});

describe('listVcns', () => {
  it('when filtered by status and type, then only those cards, newest first, page by page', async () => {
    const tenant = await fundedCompany(server);
    // Card ids are time-ordered: one second apart, the order is certain.
    const a = await issue(tenant, customRequest());
    server.clock.advance(1000);
    const b = await issue(tenant, hotelRequest());
    server.clock.advance(1000);
    const c = await issue(tenant, customRequest());
    await setStatus(server, c.vcnId, 'BLOCKED');

    const all = await tenant.api.GET('/credit-cards/v1/vcns', { params: { query: { limit: 2 } } });
    const rest = await tenant.api.GET('/credit-cards/v1/vcns', {
      params: { query: { limit: 2, nextPageStartKey: all.data!.nextPageStartKey! } },
    });
    expect([...all.data!.items, ...rest.data!.items].map((v) => v.vcnId)).toEqual([c.vcnId, b.vcnId, a.vcnId]);
    const custom = await tenant.api.GET('/credit-cards/v1/vcns', {
      params: { query: { type: 'CUSTOM', status: 'ACTIVE' } },
    });
    expect(custom.data?.items.map((v) => v.vcnId)).toEqual([a.vcnId]);
    const blocked = await tenant.api.GET('/credit-cards/v1/vcns', { params: { query: { status: 'BLOCKED' } } });
    expect(blocked.data?.items.map((v) => v.vcnId)).toEqual([c.vcnId]);
  });
});

describe('vcn events', () => {
  it('when a card is issued, topped up, used, blocked, unblocked and cancelled, then one event each, without card data', async () => {
    const tenant = await fundedCompany(server);
    const card = await issue(tenant, customRequest({ limit: { value: 100, currency: 'BRL' } }));
    const up = await tenant.api.PATCH('/credit-cards/v1/vcns/{vcnId}', {
      params: { path: { vcnId: card.vcnId } },
      body: { limit: { value: 200 } },
    });
    expect(up.response.status).toBe(200);
    await purchase(server, card.vcnId, 50);
    await purchase(server, card.vcnId, 500);
    await setStatus(server, card.vcnId, 'BLOCKED');
    await setStatus(server, card.vcnId, 'ACTIVE');
    await setStatus(server, card.vcnId, 'CANCELLED');
    const list = await events(tenant);
    expect(list.map((e) => e.type).reverse()).toEqual([
      'vcn.issued',
      'vcn.updated',
      'vcn.authorized',
      'vcn.declined',
      'vcn.blocked',
      'vcn.unblocked',
      'vcn.cancelled',
    ]);
    expect(list.find((e) => e.type === 'vcn.updated')?.data.previousAttributes).toMatchObject({
      limit: { value: 100, currency: 'BRL' },
    });
    expect(JSON.stringify(list)).not.toContain(card.card.pan);
  });

  it('when an issue fails at the processor, then no event', async () => {
    const tenant = await fundedCompany(server);
    server.issuer.failNext(1);
    const { response } = await tenant.api.POST('/credit-cards/v1/vcns', { body: customRequest() });
    expect(response.status).toBe(503);
    expect(await events(tenant)).toEqual([]);
  });

  it('when a live card passes its end date, then housekeeping records vcn.expired once, and the card reads EXPIRED', async () => {
    const tenant = await fundedCompany(server);
    const card = await issue(tenant, customRequest());
    await server.worker.tick();
    expect((await events(tenant)).map((e) => e.type)).toEqual(['vcn.issued']);
    server.clock.advance(70 * 24 * 60 * 60 * 1000);
    await server.worker.tick();
    await server.worker.tick();
    const fresh = await reauthenticate(server, tenant);
    const list = await events(fresh);
    // vcn.issued is 70 days old: past the 30 days events are kept.
    expect(list.map((e) => e.type)).toEqual(['vcn.expired']);
    expect(list[0]?.data).toMatchObject({
      object: { vcnId: card.vcnId, status: 'EXPIRED' },
      previousAttributes: { status: 'ACTIVE' },
    });
    expect(
      (await fresh.api.GET('/credit-cards/v1/vcns', { params: { query: { status: 'EXPIRED' } } })).data?.items.map(
        (v) => v.vcnId,
      ),
    ).toContain(card.vcnId);
  });
});
