// Webhook connections are pinned: the name is resolved once, by the connection, every address of
// the answer is checked against the URL policy, and the socket connects to exactly that answer
// (Host still the name). A resolver that answers differently on the second lookup (DNS rebinding)
// cannot steer a delivery to 127.0.0.1 or 169.254.169.254. Redirects are not followed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { ManualClock } from '../server/lib/clock.js';
import { createLogger } from '../server/http/pipeline/logger.js';
import { createDeliveryWorker, type DeliveryWorker } from '../server/areas/webhooks/worker.js';
import { webhookUrlProblem, type Resolve } from '../server/areas/webhooks/url-policy.js';

let server: TestServer;
let receiver: Receiver;
const workers: DeliveryWorker[] = [];
beforeAll(async () => {
  server = await startTestServer({ clock: new ManualClock(new Date()), deliveries: 'manual' });
});
afterAll(async () => server.close());
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await receiver.close();
});

/** A resolver answering `answers[n]` to its n-th lookup (the last one from then on); counts lookups. */
function resolver(...answers: string[][]) {
  const asked: string[] = [];
  const resolve: Resolve = async (hostname) => {
    asked.push(hostname);
    const answer = answers[Math.min(asked.length, answers.length) - 1] ?? [];
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

function worker(allowPrivate: boolean, resolve?: Resolve) {
  const w = createDeliveryWorker({
    db: server.db,
    clock: server.clock,
    logger: createLogger('silent'),
    allowPrivate,
    resolve,
  });
  workers.push(w);
  return w;
}

/** Registers `url` for every event of a new company and causes one event; the company. */
async function oneEventFor(url: string): Promise<{ acme: TestCompany; endpointId: string }> {
  const acme = await server.newCompany();
  const { data, response } = await acme.api.POST('/webhooks/v1/endpoints', { body: { url, enabledEvents: ['*'] } });
  expect(response.status).toBe(201);
  await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Marketing' } });
  return { acme, endpointId: data!.id };
}

async function lastDelivery(acme: TestCompany, endpointId: string) {
  const { data } = await acme.api.GET('/webhooks/v1/endpoints/{endpointId}/deliveries', {
    params: { path: { endpointId } },
  });
  expect(data?.items).toHaveLength(1);
  return data!.items[0]!;
}

const port = () => new URL(receiver.url).port;

describe('pinned webhook connections', () => {
  it('when the name answers the receiver first and another address on the second lookup, then the delivery reaches the first answer, resolved once, with Host the name', async () => {
    const { resolve, asked } = resolver(['127.0.0.1'], ['127.0.0.2']);
    const { acme, endpointId } = await oneEventFor(`http://hooks.example.test:${port()}/hooks`);
    expect(await worker(true, resolve).tick()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`hooks.example.test:${port()}`);
    expect(asked).toEqual(['hooks.example.test']);
    expect(await lastDelivery(acme, endpointId)).toMatchObject({ status: 'succeeded', responseStatus: 200 });
  });

  it('when the name answers a public address to the registration check and 127.0.0.1 to the delivery, then nothing is sent and the delivery names the refused address', async () => {
    const { resolve, asked } = resolver(['93.184.216.34'], ['127.0.0.1']);
    const url = `http://rebind.example.test:${port()}/hooks`;
    expect(await webhookUrlProblem(url, false, resolve)).toBeUndefined();
    const { acme, endpointId } = await oneEventFor(url);
    expect(await worker(false, resolve).tick()).toBe(1);
    expect(receiver.received).toEqual([]);
    expect(asked).toEqual(['rebind.example.test', 'rebind.example.test']);
    const delivery = await lastDelivery(acme, endpointId);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(delivery.error).toMatch(/public address \(rebind\.example\.test is loopback: 127\.0\.0\.1\)/);
  });

  it.each([
    ['the cloud metadata address', ['169.254.169.254'], /linkLocal: 169\.254\.169\.254/],
    ['a public and a loopback address', ['93.184.216.34', '127.0.0.1'], /loopback: 127\.0\.0\.1/],
    ['an IPv6 loopback', ['::1'], /loopback: ::1/],
    ['an IPv4-mapped private address', ['::ffff:10.0.0.1'], /private: ::ffff:10\.0\.0\.1/],
    ['nothing', [], /cannot be resolved/],
  ])('when the name answers %s, then no connection is made in production', async (_case, answer, error) => {
    const { resolve } = resolver(answer);
    const { acme, endpointId } = await oneEventFor(`http://meta.example.test:${port()}/hooks`);
    await worker(false, resolve).tick();
    expect(receiver.received).toEqual([]);
    expect((await lastDelivery(acme, endpointId)).error).toMatch(error);
  });

  it('when the URL names a loopback address itself, then it is refused in production without a lookup', async () => {
    const { resolve, asked } = resolver(['93.184.216.34']);
    const { acme, endpointId } = await oneEventFor(receiver.url);
    await worker(false, resolve).tick();
    expect(receiver.received).toEqual([]);
    expect(asked).toEqual([]);
    expect((await lastDelivery(acme, endpointId)).error).toMatch(/loopback/);
  });

  it('when the URL is https, then the TLS handshake with the pinned address names the host (SNI)', async () => {
    const names: string[] = [];
    // Records the server name of each handshake, then ends it: no certificate is needed to see it.
    const tls = createTlsServer({
      SNICallback: (name, done) => {
        names.push(name);
        done(new Error('no certificate here'));
      },
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const { resolve, asked } = resolver(['127.0.0.1'], ['127.0.0.2']);
      const { acme, endpointId } = await oneEventFor(
        `https://secure.example.test:${(tls.address() as AddressInfo).port}/hooks`,
      );
      await worker(true, resolve).tick();
      expect(names).toEqual(['secure.example.test']);
      expect(asked).toEqual(['secure.example.test']);
      expect(await lastDelivery(acme, endpointId)).toMatchObject({ status: 'pending', attempts: 1 });
    } finally {
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });

  it('when the endpoint answers a redirect, then it is not followed and the attempt fails with its status', async () => {
    const redirecting: Server = createServer((_req, res) => {
      res.writeHead(307, { Location: receiver.url }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const { acme, endpointId } = await oneEventFor(
        `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hooks`,
      );
      await worker(true).tick();
      expect(receiver.received).toEqual([]);
      expect(await lastDelivery(acme, endpointId)).toMatchObject({ status: 'pending', responseStatus: 307 });
    } finally {
      redirecting.closeAllConnections();
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });
});
