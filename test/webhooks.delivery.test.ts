// Webhook deliveries: signed per Standard Webhooks, at least once from the queue, retried with
// backoff (manual clock), both signatures while a rotated secret is still valid.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { createAccount, createBankingTransaction } from './support/factories/statements.js';
import { ManualClock } from '../server/lib/clock.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => receiver.close());

async function register(tenant: TestCompany, enabledEvents: string[] = ['*']) {
  const { data, response } = await tenant.api.POST('/webhooks/v1/endpoints', {
    body: { url: receiver.url, enabledEvents: enabledEvents as ['*'] },
  });
  expect(response.status).toBe(201);
  return data!;
}

async function patchNotes(server: TestServer, tenant: TestCompany, notes: string) {
  const account = await createAccount(server.db, tenant.companyId);
  const id = await createBankingTransaction(server.db, tenant.companyId, account, { status: 2 });
  const { response } = await tenant.api.PATCH('/statements/v1/banking/{transactionId}', {
    params: { path: { transactionId: id } },
    body: { notes },
  });
  expect(response.status).toBe(204);
  return id;
}

const headersOf = (h: Record<string, string | string[] | undefined>) => ({
  'webhook-id': String(h['webhook-id']),
  'webhook-timestamp': String(h['webhook-timestamp']),
  'webhook-signature': String(h['webhook-signature']),
});

describe('webhook delivery with a running worker', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock: new ManualClock(new Date()) });
  });
  afterAll(async () => server.close());

  it("when a banking transaction's notes are patched, then the receiver gets one delivery that verifies with standardwebhooks and names the transaction", async () => {
    const acme = await server.newCompany();
    const endpoint = await register(acme);
    const id = await patchNotes(server, acme, 'Reembolso aprovado');

    const [delivery] = await receiver.waitFor(1);
    const event = new Webhook(endpoint.secret).verify(delivery!.body, headersOf(delivery!.headers)) as {
      id: string;
      type: string;
      requestId: string;
      data: { object: { id: number; notes: string }; previousAttributes: { notes: string } };
    };
    expect(event.type).toBe('banking_transaction.updated');
    expect(event.data.object).toMatchObject({ id, notes: 'Reembolso aprovado' });
    expect(event.data.previousAttributes).toHaveProperty('notes');
    expect(delivery!.headers['webhook-id']).toMatch(/^msg_/);

    const { data: events } = await acme.api.GET('/events/v1/events');
    expect(events?.items[0]).toMatchObject({ id: event.id, type: 'banking_transaction.updated' });
    await vi.waitFor(async () => {
      const { data } = await acme.api.GET('/webhooks/v1/endpoints/{endpointId}/deliveries', {
        params: { path: { endpointId: endpoint.id } },
      });
      expect(data?.items).toEqual([
        expect.objectContaining({ eventId: event.id, status: 'succeeded', attempts: 1, responseStatus: 200 }),
      ]);
      // The worker records the answer after the receiver has it: on a busy machine, more than a second later.
    }, 10_000);
  });

  it('when the endpoint listens to other types only, then nothing is delivered for the change', async () => {
    const acme = await server.newCompany();
    await register(acme, ['banking_transaction.reconciled']);
    const id = await patchNotes(server, acme, 'Ignorado');
    const { response } = await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: id } },
      body: { isConciled: true },
    });
    expect(response.status).toBe(204);
    const [only] = await receiver.waitFor(1);
    expect(JSON.parse(only!.body)).toMatchObject({ type: 'banking_transaction.reconciled', data: { object: { id } } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(1);
  });
});

describe('webhook retries (manual clock, manual worker)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock: new ManualClock(new Date()), deliveries: 'manual' });
  });
  afterAll(async () => server.close());

  it('when the receiver fails twice then answers 200, then exactly one successful delivery after backoff, same webhook-id each time', async () => {
    let acme = await server.newCompany();
    const endpoint = await register(acme);
    receiver.answers.push(500, 503);
    await patchNotes(server, acme, 'Tentativas');

    expect(await server.worker.tick()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    // Not due yet: the backoff holds it.
    expect(await server.worker.tick()).toBe(0);
    const list = async () =>
      (
        await acme.api.GET('/webhooks/v1/endpoints/{endpointId}/deliveries', {
          params: { path: { endpointId: endpoint.id } },
        })
      ).data!.items;
    expect(await list()).toEqual([
      expect.objectContaining({
        status: 'pending',
        attempts: 1,
        responseStatus: 500,
        nextAttemptAt: expect.any(String),
      }),
    ]);

    server.clock.advance(60_000);
    expect(await server.worker.tick()).toBe(1);
    server.clock.advance(60_000);
    expect(await server.worker.tick()).toBe(1);
    server.clock.advance(60 * 60_000);
    expect(await server.worker.tick()).toBe(0);
    acme = await reauth(server, acme);

    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(
      Array(3).fill(receiver.received[0]!.headers['webhook-id']),
    );
    expect(await list()).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 3, responseStatus: 200 })]);
    for (const r of receiver.received)
      expect(() => new Webhook(endpoint.secret).verify(r.body, headersOf(r.headers))).not.toThrow();
  });

  it('when an endpoint keeps failing for 3 days, then it is disabled, its deliveries given up, and webhook_endpoint.disabled is recorded', async () => {
    const acme = await server.newCompany();
    const endpoint = await register(acme, ['banking_transaction.updated']);
    receiver.answers.push(...Array(100).fill(500));
    await patchNotes(server, acme, 'Sempre falha');
    for (let i = 0; i < 100; i++) {
      await server.worker.tick();
      const { data } = await acme.api.GET('/webhooks/v1/endpoints/{endpointId}', {
        params: { path: { endpointId: endpoint.id } },
      });
      if (data?.status === 'disabled') break;
      server.clock.advance(6 * 60 * 60_000 + 60_000);
      acme.api = server.apiWithToken((await reauth(server, acme)).token);
    }
    const { data } = await acme.api.GET('/webhooks/v1/endpoints/{endpointId}', {
      params: { path: { endpointId: endpoint.id } },
    });
    expect(data?.status).toBe('disabled');
    const { data: events } = await acme.api.GET('/events/v1/events', {
      params: { query: { types: ['webhook_endpoint.disabled'] } },
    });
    expect(events?.items).toEqual([
      expect.objectContaining({
        type: 'webhook_endpoint.disabled',
        data: expect.objectContaining({ object: expect.objectContaining({ id: endpoint.id, status: 'disabled' }) }),
      }),
    ]);
    const { data: deliveries } = await acme.api.GET('/webhooks/v1/endpoints/{endpointId}/deliveries', {
      params: { path: { endpointId: endpoint.id } },
    });
    expect(deliveries?.items.every((d) => d.status === 'failed')).toBe(true);
  });

  it('when the secret is rotated, then deliveries carry both signatures for 24 hours, then only the new one', async () => {
    const acme = await server.newCompany();
    const endpoint = await register(acme);
    const { data: rotated } = await acme.api.POST('/webhooks/v1/endpoints/{endpointId}/rotate-secret', {
      params: { path: { endpointId: endpoint.id } },
    });
    expect(rotated?.secret).toMatch(/^whsec_/);
    expect(rotated?.secret).not.toBe(endpoint.secret);

    await patchNotes(server, acme, 'Rotação');
    await server.worker.tick();
    const [first] = receiver.received;
    expect(String(first!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => new Webhook(endpoint.secret).verify(first!.body, headersOf(first!.headers))).not.toThrow();
    expect(() => new Webhook(rotated!.secret).verify(first!.body, headersOf(first!.headers))).not.toThrow();

    server.clock.advance(24 * 60 * 60_000 + 1);
    const fresh = await reauth(server, acme);
    await patchNotes(server, fresh, 'Depois de 24 horas');
    await server.worker.tick();
    const second = receiver.received[1]!;
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => new Webhook(rotated!.secret).verify(second.body, headersOf(second.headers))).not.toThrow();
    expect(() => new Webhook(endpoint.secret).verify(second.body, headersOf(second.headers))).toThrow();
  });

  it('when a delivery is retried by hand, then it is sent again with the same webhook-id', async () => {
    const acme = await server.newCompany();
    const endpoint = await register(acme);
    await patchNotes(server, acme, 'Reenvio');
    await server.worker.tick();
    const { data } = await acme.api.GET('/webhooks/v1/endpoints/{endpointId}/deliveries', {
      params: { path: { endpointId: endpoint.id } },
    });
    const deliveryId = data!.items[0]!.id;
    const { response, data: queued } = await acme.api.POST(
      '/webhooks/v1/endpoints/{endpointId}/deliveries/{deliveryId}/retry',
      {
        params: { path: { endpointId: endpoint.id, deliveryId } },
      },
    );
    expect(response.status).toBe(202);
    expect(queued?.status).toBe('pending');
    await server.worker.tick();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([deliveryId, deliveryId]);
  });
});

async function reauth(server: TestServer, tenant: TestCompany): Promise<TestCompany> {
  const res = await fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: tenant.clientId,
      client_secret: tenant.clientSecret,
    }),
  });
  const { access_token: token } = (await res.json()) as { access_token: string };
  return { ...tenant, token, api: server.apiWithToken(token) };
}
