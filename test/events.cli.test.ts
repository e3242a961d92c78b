// `finance events listen` and `finance events trigger` over the API with client credentials only:
// listen forwards each event signed and says why a forward failed, keeps one signing secret per
// machine and base URL, and leaks nothing over a long run; trigger makes the real change, so the
// event's object can be fetched.
import { spawn } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFinanceClient } from '../client/index.js';
import { listenSecret } from '../server/cli/api-session.js';
import { listenForEvents } from '../server/cli/events.js';
import { seedCompany } from '../server/cli/seed.js';
import { TRIGGERS, triggerEvent, UNTRIGGERABLE } from '../server/cli/triggers.js';
import type { Event } from '../server/cli/trigger-calls.js';
import { finance, financeInProcess } from './support/cli.js';
import { startReceiver, type Received } from './support/receiver.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;
const config = mkdtempSync(join(tmpdir(), 'finance-config-'));

beforeAll(async () => {
  server = await startTestServer({ config: { rateLimitPerMinute: 0 } });
  acme = await server.newCompany();
  await seedCompany(server.db, { companyId: acme.companyId, transactions: 30, seed: 7, clock: server.clock });
}, 120_000);
afterAll(async () => {
  await server.close();
  rmSync(config, { recursive: true, force: true });
});

const clientOf = (company: TestCompany) =>
  createFinanceClient({ baseUrl: server.baseUrl, clientId: company.clientId, clientSecret: company.clientSecret });

const verify = (secret: string, delivery: Received) =>
  new Webhook(secret).verify(delivery.body, {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  }) as { id: string; type: string; data: { object: Record<string, unknown> } };

/** Runs `listen` in this process until `work` is done. */
async function listening<T>(
  options: { forwardTo?: string; secret?: string; pollMs?: number; forwardTimeoutMs?: number },
  work: (lines: string[], signal: AbortSignal) => Promise<T>,
) {
  const stop = new AbortController();
  const lines: string[] = [];
  const run = listenForEvents({
    api: clientOf(acme),
    secret: options.secret ?? 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    pollMs: options.pollMs ?? 20,
    signal: stop.signal,
    print: (line) => lines.push(line),
    ...options,
  });
  try {
    const result = await work(lines, stop.signal);
    stop.abort();
    return { result, events: await run, lines };
  } finally {
    stop.abort();
  }
}

describe('finance events listen', () => {
  it('when a cost center is created through the API, then listen forwards cost_center.created signed and prints 200', async () => {
    const receiver = await startReceiver();
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    try {
      const { result: delivery, lines } = await listening({ forwardTo: receiver.url, secret }, async (lines) => {
        await expect.poll(() => lines.some((l) => l.startsWith('Forwarding'))).toBe(true);
        await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Ouvido' } });
        const [received] = await receiver.waitFor(1);
        await expect.poll(() => lines.some((l) => l.includes('cost_center.created'))).toBe(true);
        return received!;
      });
      const event = verify(secret, delivery);
      expect(event).toMatchObject({ type: 'cost_center.created', data: { object: { name: 'Ouvido' } } });
      expect(lines.find((l) => l.includes('cost_center.created'))).toContain('-> 200 OK');
      const { data } = await acme.api.GET('/cost-centers/v1/cost-centers/{id}', {
        params: { path: { id: String(event.data.object.id) } },
      });
      expect(data?.name).toBe('Ouvido');
    } finally {
      await receiver.close();
    }
  });

  it('when the receiver refuses the connection, answers 500 or never answers, then the line says which', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const silent = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const receiver = await startReceiver();
    receiver.answers.push(500);
    const targets = [
      [`http://127.0.0.1:${port}/hooks`, `failed: connection refused by 127.0.0.1:${port}`],
      [receiver.url, '-> 500 Internal Server Error'],
      [`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, 'failed: no answer within 0.3 s'],
    ] as const;
    try {
      for (const [forwardTo, expected] of targets) {
        const { lines } = await listening({ forwardTo, forwardTimeoutMs: 300 }, async (lines) => {
          await expect.poll(() => lines.length).toBeGreaterThan(0);
          await acme.api.POST('/suppliers/v1/suppliers', { body: { name: `Fornecedor ${expected.slice(0, 12)}` } });
          await expect.poll(() => lines.some((l) => l.includes('supplier.created'))).toBe(true);
        });
        expect(lines.find((l) => l.includes('supplier.created'))).toContain(expected);
      }
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await receiver.close();
    }
  });

  // ~120 polls: a listener left behind by each poll would pass Node's warning threshold (10) after 11.
  it('when it runs for 2.4 s polling every 20 ms, then the stop signal holds no growing listeners and no warning is raised', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const counts: number[] = [];
      const { events } = await listening({ pollMs: 20 }, async (_lines, signal) => {
        for (let check = 0; check < 8; check++) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          counts.push(getEventListeners(signal, 'abort').length);
          if (check % 3 === 0) await acme.api.POST('/categories/v1/categories', { body: { name: `Leak ${check}` } });
        }
      });
      expect(events.map((e) => e.type)).toEqual(['category.created', 'category.created', 'category.created']);
      expect(Math.max(...counts)).toBeLessThanOrEqual(2);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  }, 60_000);
});

type EventObject = Record<string, unknown>;

/** The card of a `vcn.*` event, as `getVcn` shows it now. */
const cardOf = async (object: EventObject) => {
  const { data, response } = await acme.api.GET('/credit-cards/v1/vcns/{vcnId}', {
    params: { path: { vcnId: String(object.vcnId) } },
  });
  expect(response.status).toBe(200);
  return data!;
};

const userStatus = async (userId: unknown) =>
  (await acme.api.GET('/users/v1/users/{userId}', { params: { path: { userId: String(userId) } } })).response.status;

/** What the API shows of each sandbox-caused event's object, read back by its id. */
const objectChecks: Record<string, (object: EventObject, event: Event) => Promise<void>> = {
  'user.updated': async (object) => {
    const { data } = await acme.api.GET('/users/v1/users/{userId}', {
      params: { path: { userId: String(object.id) } },
    });
    expect(data?.name).toBe(object.name);
  },
  'user.deleted': async (object) => expect(await userStatus(object.id)).toBe(404),
  'invite.accepted': async (object) => {
    expect(object.status).toBe('ACCEPTED');
    expect(await userStatus(object.userId)).toBe(200);
  },
  'vcn.authorized': async (object, event) => {
    expect((await cardOf(object)).spent.value).toBe(12.5);
    expect(event.data.authorization).toMatchObject({
      approved: true,
      amount: { value: 12.5, currency: 'BRL' },
      merchant: { name: 'PAPELARIA CENTRAL', mcc: '5943' },
      authorizationCode: expect.stringMatching(/^[0-9A-Z]{6}$/),
    });
  },
  'vcn.declined': async (object, event) => {
    expect((await cardOf(object)).spent.value).toBe(0);
    expect(event.data.authorization).toMatchObject({
      approved: false,
      amount: { value: 600, currency: 'BRL' },
      merchant: { name: 'PAPELARIA CENTRAL', mcc: '5943' },
      declineReason: 'LIMIT_EXCEEDED',
    });
  },
  'card.blocked': async (object, event) => {
    const { data } = await acme.api.GET('/credit-cards/v1/cards', { params: { query: { status: 'BLOCKED' } } });
    expect(data?.items.map((c) => c.id)).toContain(object.id);
    expect(event.data).toMatchObject({ action: { reason: expect.stringContaining('finance events trigger') } });
  },
  'card.unblocked': async (object) => {
    const { data } = await acme.api.GET('/credit-cards/v1/cards', { params: { query: { status: 'ACTIVATED' } } });
    expect(data?.items.map((c) => c.id)).toContain(object.id);
  },
  'vcn.blocked': async (object) => expect((await cardOf(object)).status).toBe('BLOCKED'),
  'vcn.unblocked': async (object) => expect((await cardOf(object)).status).toBe('ACTIVE'),
  'vcn.cancelled': async (object) => expect((await cardOf(object)).status).toBe('CANCELLED'),
  'vcn.expired': async (object) => expect((await cardOf(object)).status).toBe('EXPIRED'),
  // The ingest summary has no id and no GET: the transaction that arrived is in the statement.
  'statement.ingested': async (object) => expect(object).toMatchObject({ file: 'sandbox', banking: 1, creditCard: 0 }),
  // Rows changed without an event of their own: the object names the statement whose feed to catch up with.
  'statement.updates_available': async (object) => expect(object).toEqual({ statement: 'banking' }),
  'attachment.created': async (object) => {
    const { response } = await acme.api.GET('/attachments/v1/content/{attachmentId}', {
      params: { path: { attachmentId: String(object.id) } },
      parseAs: 'blob',
    });
    expect(response.status).toBe(200);
  },
};

describe('finance events trigger', () => {
  for (const type of Object.keys(TRIGGERS)) {
    it(`when ${type} is triggered, then the change is made through the API and its event names an object that exists`, async () => {
      const event = await triggerEvent(clientOf(acme), type);
      expect(event.type).toBe(type);
      const { data } = await acme.api.GET('/events/v1/events/{eventId}', { params: { path: { eventId: event.id } } });
      expect(data?.requestId).toBe(event.requestId);
      const object = event.data.object as EventObject;
      const check = objectChecks[type];
      if (check) await check(object, event);
      else expect(object.id ?? object.vcnId).toBeDefined();
    });
  }

  it('when the company has no credit-card transaction, then credit_card_transaction.reconciled makes one arrive first and reconciles it', async () => {
    const empty = await server.newCompany({ name: 'Empty Statements Ltda' });
    const card = (await triggerEvent(clientOf(empty), 'credit_card_transaction.reconciled')).data.object as EventObject;
    expect(card.conciliation).toMatchObject({ conciled: true });
    const cards = await empty.api.GET('/statements/v1/credit-card', { params: { query: { limit: 10 } } });
    expect(cards.data?.transactions.map((t) => t.id)).toEqual([card.id]);
  });

  it('when vcn.expired is triggered, then the company clock moved about two days, not more', async () => {
    const before = Date.parse((await acme.api.GET('/sandbox/v1/clock')).data!.now);
    await triggerEvent(clientOf(acme), 'vcn.expired');
    const after = Date.parse((await acme.api.GET('/sandbox/v1/clock')).data!.now);
    expect(after - before).toBeGreaterThan(24 * 3_600_000);
    expect(after - before).toBeLessThan(4 * 24 * 3_600_000);
  });

  it('when cost_center.created is triggered, then a handler that re-fetches the cost center gets it', async () => {
    const event = await triggerEvent(clientOf(acme), 'cost_center.created');
    const id = String((event.data.object as { id: string }).id);
    const { response } = await acme.api.GET('/cost-centers/v1/cost-centers/{id}', { params: { path: { id } } });
    expect(response.status).toBe(200);
  });

  it('when a type comes from outside the API or is unknown, then it fails saying so and naming the triggerable types', async () => {
    expect(UNTRIGGERABLE).toEqual([expect.stringMatching(/^webhook_endpoint\.disabled \(.*3 days.*wall time/)]);
    await expect(triggerEvent(clientOf(acme), 'webhook_endpoint.disabled')).rejects.toThrow(
      /cannot be caused through the API: .*wall time/,
    );
    await expect(triggerEvent(clientOf(acme), 'cost_center.exploded')).rejects.toThrow(
      /unknown event type.*cost_center\.created/,
    );
  });
});

describe('the finance command, with credentials and no database', () => {
  const vars = () => ({
    FINANCE_BASE_URL: server.baseUrl,
    FINANCE_CLIENT_ID: acme.clientId,
    FINANCE_CLIENT_SECRET: acme.clientSecret,
    XDG_CONFIG_HOME: config,
    DATABASE_URL: '',
  });
  const env = () => ({ ...process.env, ...vars() });
  // `listen` runs as a process of its own (it runs until a signal stops it); `trigger` runs in this process.

  it('when `events listen --forward-to` runs and a cost center is created, then the receiver gets it signed with the secret kept for that base URL, the same on every start', async () => {
    const receiver = await startReceiver();
    const child = spawn(
      'node',
      ['bin/finance.js', 'events', 'listen', '--forward-to', receiver.url, '--poll-ms', '100'],
      {
        env: env(),
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      await expect.poll(() => out, { timeout: 20_000 }).toContain('Forwarding events');
      await acme.api.POST('/cost-centers/v1/cost-centers', { body: { name: 'Pelo terminal' } });
      const [delivery] = await receiver.waitFor(1, 20_000);
      const stored = JSON.parse(readFileSync(join(config, 'company-finance', 'listen-secrets.json'), 'utf8'));
      const secret = stored[server.baseUrl] as string;
      expect(out).toContain(secret);
      expect(verify(secret, delivery!)).toMatchObject({ type: 'cost_center.created' });
      expect(listenSecret(server.baseUrl, env())).toBe(secret);
      expect(listenSecret('http://elsewhere.test', env())).not.toBe(secret);
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      await receiver.close();
    }
  }, 60_000);

  it('when the commands docs/events.md gives are run as written (the receiver for its URL), then listen forwards and trigger succeeds', async () => {
    const commands = readFileSync('docs/events.md', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('npx finance '))
      .map((line) => line.replace(/^npx finance /, '').split(' '));
    expect(commands.map((args) => args.slice(0, 2).join(' '))).toEqual(['events listen', 'events trigger']);
    const receiver = await startReceiver();
    const listen = commands[0]!.map((arg) => (arg === 'http://localhost:3000/hooks' ? receiver.url : arg));
    const child = spawn('node', ['bin/finance.js', ...listen, '--poll-ms', '100'], { env: env() });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      await expect.poll(() => out, { timeout: 20_000 }).toContain('Forwarding events');
      const stdout = await finance(commands[1]!, vars());
      expect(stdout).toContain('banking_transaction.reconciled');
      const deliveries = await receiver.waitFor(1, 20_000);
      expect(deliveries.length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => child.once('exit', resolve));
      await receiver.close();
    }
  }, 60_000);

  it('when `events trigger` runs without credentials, then it fails naming the flags and variables to set', async () => {
    const failure = await financeInProcess(['events', 'trigger', 'cost_center.created'], {
      ...vars(),
      FINANCE_CLIENT_ID: '',
      FINANCE_CLIENT_SECRET: '',
    });
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain('--client-id (or FINANCE_CLIENT_ID)');
  }, 30_000);

  it('when `events trigger vcn.declined` runs, then it prints the purchase: declined, its reason, amount and merchant', async () => {
    const stdout = await finance(['events', 'trigger', 'vcn.declined'], vars());
    expect(stdout).toMatch(/^type: vcn\.declined$/m);
    expect(stdout).toMatch(/^authorization: declined LIMIT_EXCEEDED: BRL 600\.00 at PAPELARIA CENTRAL \(MCC 5943\)$/m);
  }, 30_000);

  it('when `events trigger cost_center.created --json` runs, then it prints the event of a cost center that exists', async () => {
    const stdout = await finance(['events', 'trigger', 'cost_center.created', '--json'], vars());
    const event = JSON.parse(stdout) as { type: string; data: { object: { id: string } } };
    expect(event.type).toBe('cost_center.created');
    const { response } = await acme.api.GET('/cost-centers/v1/cost-centers/{id}', {
      params: { path: { id: event.data.object.id } },
    });
    expect(response.status).toBe(200);
  }, 30_000);
});
