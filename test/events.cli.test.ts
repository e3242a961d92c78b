// `finance events listen` and `finance events trigger`: follow and forward events signed; trigger realistic ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestServer, type TestServer } from './support/server.js';
import { startReceiver } from './support/receiver.js';
import { listenForEvents, triggerEvent } from '../server/cli/events.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ deliveries: 'manual' });
});
afterAll(async () => server.close());

describe('finance events listen', () => {
  it('when events are written after it starts, then it prints them and forwards each one signed to the URL', async () => {
    const acme = await server.newCompany();
    await triggerEvent(server.db, server.clock, acme.companyId, 'supplier.created');
    const receiver = await startReceiver();
    const stop = new AbortController();
    const lines: string[] = [];
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    try {
      const listening = listenForEvents({
        db: server.db,
        companyId: acme.companyId,
        forwardTo: receiver.url,
        secret,
        signal: stop.signal,
        print: (l) => lines.push(l),
        pollMs: 20,
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const { response } = await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Ouvido' } });
      expect(response.status).toBe(201);
      const [delivery] = await receiver.waitFor(1);
      stop.abort();
      const seen = await listening;
      expect(seen.map((e) => e.type)).toEqual(['cost_center.created']);
      const event = new Webhook(secret).verify(delivery!.body, {
        'webhook-id': String(delivery!.headers['webhook-id']),
        'webhook-timestamp': String(delivery!.headers['webhook-timestamp']),
        'webhook-signature': String(delivery!.headers['webhook-signature']),
      }) as { type: string; data: { object: { name: string } } };
      expect(event).toMatchObject({ type: 'cost_center.created', data: { object: { name: 'Ouvido' } } });
      expect(lines.some((l) => l.includes('cost_center.created') && l.includes('-> 200'))).toBe(true);
    } finally {
      stop.abort();
      await receiver.close();
    }
  });
});

describe('finance events trigger', () => {
  it('when a known type is triggered, then an event with the contract example object and the company id is recorded and queued for its endpoints', async () => {
    const acme = await server.newCompany();
    const { data: endpoint } = await acme.api.POST('/webhooks/v1/endpoints', {
      body: { url: 'http://127.0.0.1:9/hooks', enabledEvents: ['cost_center.created'] },
    });
    const row = await triggerEvent(server.db, server.clock, acme.companyId, 'cost_center.created');
    const { data } = await acme.api.GET('/events/v1/events/{eventId}', { params: { path: { eventId: row.id } } });
    expect(data).toMatchObject({
      type: 'cost_center.created',
      requestId: null,
      data: { object: { companyId: acme.companyId, name: expect.any(String) } },
    });
    const { data: deliveries } = await acme.api.GET('/webhooks/v1/endpoints/{endpointId}/deliveries', {
      params: { path: { endpointId: endpoint!.id } },
    });
    expect(deliveries?.items.map((d) => d.eventId)).toEqual([row.id]);
  });

  it('when the type is unknown, then it fails naming the known types', async () => {
    const acme = await server.newCompany();
    await expect(triggerEvent(server.db, server.clock, acme.companyId, 'cost_center.exploded')).rejects.toThrow(
      /unknown event type.*cost_center\.created/,
    );
  });
});
