// Each webhook endpoint is a queue of its own: one endpoint's failures, retries, slowness or hangs
// never delay another's deliveries. An endpoint that accepts connections and never answers and one
// that always fails (slowly) each hold a backlog, worked by two workers as two replicas would; a
// healthy endpoint of the same company still receives a burst within seconds, each event once.
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';
import { ManualClock } from '../server/lib/clock.js';
import { createLogger } from '../server/http/pipeline/logger.js';
import { createDeliveryWorker, type DeliveryWorker } from '../server/areas/webhooks/worker.js';

let server: TestServer;
let receiver: Receiver;
const closers: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  server = await startTestServer({ clock: new ManualClock(new Date()), deliveries: 'manual' });
});
afterAll(async () => server.close());
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await receiver.close();
});

const listen = async (s: Server) => {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/hooks`;
};

/** Reads every request and never answers; counts the requests waiting at once. */
async function silentEndpoint() {
  const open = new Set<Socket>();
  const waiting = new Set<Socket>();
  let peak = 0;
  const tcp = createTcpServer((socket) => {
    open.add(socket);
    socket.on('data', () => {
      waiting.add(socket);
      peak = Math.max(peak, waiting.size);
    });
    socket.on('close', () => {
      open.delete(socket);
      waiting.delete(socket);
    });
  });
  const url = await listen(tcp);
  closers.push(async () => {
    for (const socket of open) socket.destroy();
    await new Promise((resolve) => tcp.close(resolve));
  });
  return { url, waiting, peak: () => peak };
}

/** Answers every delivery 503, after `delayMs`. */
async function failingEndpoint() {
  const state = { delayMs: 0 };
  const http = createHttpServer((req, res) => {
    req.resume();
    setTimeout(() => res.writeHead(503).end(), state.delayMs);
  });
  const url = await listen(http);
  closers.push(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  return { url, state };
}

function startWorkers(count: number) {
  const workers: DeliveryWorker[] = Array.from({ length: count }, () =>
    createDeliveryWorker({
      db: server.db,
      clock: server.clock,
      logger: createLogger('silent'),
      allowPrivate: true,
      intervalMs: 50,
    }),
  );
  for (const worker of workers) worker.start();
  closers.push(() => Promise.all(workers.map((worker) => worker.stop())));
}

async function register(tenant: TestCompany, url: string) {
  const { data, response } = await tenant.api.POST('/webhooks/v1/endpoints', {
    body: { url, enabledEvents: ['banking_transaction.updated'] },
  });
  expect(response.status).toBe(201);
  const endpointId = data!.id;
  // Gone with its deliveries once the test ends, so the next test's rounds do not meet them.
  closers.push(() => tenant.api.DELETE('/webhooks/v1/endpoints/{endpointId}', { params: { path: { endpointId } } }));
  return endpointId;
}

/** A company with `count` banking transactions; `events(n)` records n events at once (a batch PATCH). */
async function companyWithTransactions(count: number) {
  const tenant = await server.newCompany();
  const account = await createAccount(server.db, tenant.companyId);
  const ids = await createBankingTransactions(
    server.db,
    tenant.companyId,
    account,
    Array.from({ length: count }, () => ({ status: 2 as const })),
  );
  let round = 0;
  const events = async (n: number) => {
    round += 1;
    for (let from = 0; from < n; from += 100) {
      const transactions = ids.slice(from, Math.min(n, from + 100)).map((id) => ({ id, notes: `Lote ${round}` }));
      const { response } = await tenant.api.PATCH('/statements/v1/banking', { body: { transactions } });
      expect(response.status).toBe(204);
    }
  };
  return { tenant, events };
}

const deliveriesOf = (endpointId: string) =>
  server.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).execute();

const eventIds = (from: Receiver['received']) => from.map((r) => (JSON.parse(r.body) as { id: string }).id);

describe('endpoints isolated from each other (two workers)', () => {
  it('when one endpoint never answers and another always fails, each with 100 events queued, then a third receives a burst of 50 within 5 s, each once', async () => {
    const BACKLOG = 100;
    const BURST = 50;
    const { tenant, events } = await companyWithTransactions(BACKLOG);
    const silent = await silentEndpoint();
    const failing = await failingEndpoint();
    const silentId = await register(tenant, silent.url);
    const failingId = await register(tenant, failing.url);
    await events(BACKLOG);
    startWorkers(2);

    // Every delivery to the failing endpoint attempted once; then its retries come due, each failing after 2 s.
    await vi.waitFor(
      async () => expect((await deliveriesOf(failingId)).filter((d) => d.attempts > 0)).toHaveLength(BACKLOG),
      { timeout: 8_000, interval: 50 },
    );
    failing.state.delayMs = 2_000;
    server.clock.advance(15_000);
    expect(silent.waiting.size).toBeGreaterThan(0);

    const healthyId = await register(tenant, receiver.url);
    const burst = performance.now();
    await events(BURST);
    await receiver.waitFor(BURST, 5_000);
    expect(performance.now() - burst).toBeLessThan(5_000);

    // Meanwhile the failing endpoint's retries go on, and the silent endpoint's attempts end after 10 s.
    await vi.waitFor(
      async () => {
        expect((await deliveriesOf(failingId)).some((d) => d.attempts > 1)).toBe(true);
        const timedOut = (await deliveriesOf(silentId)).filter((d) => d.last_error === 'no answer within 10 s');
        expect(timedOut.length).toBeGreaterThan(0);
        for (const d of timedOut) expect(d.last_duration_ms).toBeGreaterThanOrEqual(9_990);
      },
      { timeout: 12_000, interval: 100 },
    );
    // At most 8 requests of each worker at once.
    expect(silent.peak()).toBeLessThanOrEqual(16);
    // Each event once: one attempt of each delivery, by one of the workers.
    const ids = eventIds(receiver.received);
    expect(new Set(ids).size).toBe(BURST);
    expect(ids).toHaveLength(BURST);
    expect((await deliveriesOf(healthyId)).map((d) => [d.status, d.attempts])).toEqual(
      Array(BURST).fill(['succeeded', 1]),
    );
  }, 30_000);
});

describe("an endpoint's slots (manual worker)", () => {
  it('when an endpoint has 20 events queued, then each round sends the next 8 in the order they were recorded', async () => {
    const { tenant, events } = await companyWithTransactions(20);
    await register(tenant, receiver.url);
    await events(20);
    expect(await server.worker.tick()).toBe(8);
    const first = eventIds(receiver.received).sort();
    expect(await server.worker.tick()).toBe(8);
    expect(await server.worker.tick()).toBe(4);
    const all = eventIds(receiver.received).sort();
    expect(all).toHaveLength(20);
    expect(first).toEqual(all.slice(0, 8));
  });

  it('when an endpoint’s attempts fail, then it gets one delivery at a time until one succeeds', async () => {
    const { tenant, events } = await companyWithTransactions(20);
    await register(tenant, receiver.url);
    receiver.answers.push(...Array(8).fill(500));
    await events(20);
    expect(await server.worker.tick()).toBe(8);
    expect(await server.worker.tick()).toBe(1);
    expect(await server.worker.tick()).toBe(8);
  });
});
