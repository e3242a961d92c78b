// The company's test clock over HTTP: forward only, per company, shared by every process on the
// database; advancing it fires what time drives (card expiry with its event and webhook), and
// bills and invites read the company's day.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { customRequest, fundedCompany, issue, reauthenticate } from './support/factories/vcn.js';
import { createRoles } from './support/factories/users.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { freshDatabase } from './support/database.js';

let server: TestServer;
let receiver: Receiver;
let acme: TestCompany;
let globex: TestCompany;
let dbPath: string;

beforeAll(async () => {
  dbPath = await freshDatabase(mkdtempSync(join(tmpdir(), 'sandbox-clock-')));
  server = await startTestServer({ dbPath });
  receiver = await startReceiver();
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});
beforeEach(async () => {
  server.clock.set('2026-11-20T15:00:00Z');
  acme = await fundedCompany(server);
  globex = await fundedCompany(server);
});

const advance = (company: TestCompany, to: string) => company.api.POST('/sandbox/v1/clock/advance', { body: { to } });
const nowOf = async (company: TestCompany) => (await company.api.GET('/sandbox/v1/clock')).data?.now;

describe('getSandboxClock', () => {
  it('when never moved, then the clock reads wall time', async () => {
    expect(await nowOf(acme)).toBe('2026-11-20T15:00:00.000Z');
  });
});

describe('advanceSandboxClock', () => {
  it('when advanced, then 200 with the new now, and it runs on with wall time from there', async () => {
    const { data, response } = await advance(acme, '2027-01-10T12:00:00Z');
    expect(response.status).toBe(200);
    expect(data?.now).toBe('2027-01-10T12:00:00.000Z');
    server.clock.advance(60_000);
    acme = await reauthenticate(server, acme);
    expect(await nowOf(acme)).toBe('2027-01-10T12:01:00.000Z');
  });

  it('when to is before now, then 400 in the error body; to equal to now is accepted', async () => {
    await advance(acme, '2026-12-01T00:00:00Z');
    const { error, response } = await advance(acme, '2026-11-30T23:59:59.999Z');
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ error: 'Bad Request', code: 400 });
    expect(error?.message).toMatch(/only moves forward/);
    expect((await advance(acme, '2026-12-01T00:00:00Z')).response.status).toBe(200);
  });

  it('when to is more than 10 years ahead of wall time, then 400; at 10 years, 200', async () => {
    const tenYears = new Date(Date.parse('2026-11-20T15:00:00Z') + 10 * 366 * 24 * 3600 * 1000);
    expect((await advance(acme, new Date(tenYears.getTime() + 1).toISOString())).response.status).toBe(400);
    expect((await advance(acme, tenYears.toISOString())).response.status).toBe(200);
  });

  it("when one company's clock moves, then another company's does not", async () => {
    await advance(acme, '2027-03-01T00:00:00Z');
    expect(await nowOf(globex)).toBe('2026-11-20T15:00:00.000Z');
  });

  it('when another process on the same database reads the clock, then it sees the move', async () => {
    const other = await startTestServer({ dbPath, clock: server.clock });
    try {
      await advance(acme, '2027-02-02T10:00:00Z');
      const seen = other.apiWithToken(acme.token);
      const read = await seen.GET('/sandbox/v1/clock');
      expect(read.error).toBeUndefined();
      expect(read.data?.now).toBe('2027-02-02T10:00:00.000Z');
    } finally {
      await other.close();
    }
  });

  it('when the body has no to or a malformed one, then 400', async () => {
    const bad = await acme.api.POST('/sandbox/v1/clock/advance', { body: { to: 'tomorrow' } });
    expect(bad.response.status).toBe(400);
  });
});

describe('resetSandboxClock', () => {
  const reset = (company: TestCompany) => company.api.POST('/sandbox/v1/clock/reset');

  it('when reset after an advance, then 200 with wall time, and the clock reads wall time again', async () => {
    await advance(acme, '2027-06-01T00:00:00Z');
    const { data, response } = await reset(acme);
    expect(response.status).toBe(200);
    expect(data?.now).toBe('2026-11-20T15:00:00.000Z');
    server.clock.advance(60_000);
    expect(await nowOf(acme)).toBe('2026-11-20T15:01:00.000Z');
  });

  it("when reset after an advance, then a card issued for today's dates is accepted again", async () => {
    const today = customRequest({ startDate: '2026-11-20', endDate: '2026-11-30' });
    await advance(acme, '2026-12-15T12:00:00Z');
    const refused = await acme.api.POST('/credit-cards/v1/vcns', { body: today });
    expect(refused.response.status).toBe(400);
    await reset(acme);
    const issued = await acme.api.POST('/credit-cards/v1/vcns', { body: today });
    expect(issued.response.status).toBe(201);
    expect(issued.data).toMatchObject({ status: 'ACTIVE', startDate: '2026-11-20', endDate: '2026-11-30' });
  });

  it('when reset before an expired card ends, then it is ACTIVE again, its event stays, and it expires again later', async () => {
    const card = await issue(acme, customRequest({ endDate: '2026-11-30' }));
    await advance(acme, '2026-12-01T12:00:00Z');
    await reset(acme);
    const status = async () =>
      (await acme.api.GET('/credit-cards/v1/vcns/{vcnId}', { params: { path: { vcnId: card.vcnId } } })).data?.status;
    expect(await status()).toBe('ACTIVE');
    const expiries = async () =>
      (await acme.api.GET('/events/v1/events', { params: { query: { types: ['vcn.expired'] } } })).data?.items.map(
        (e) => e.createdAt,
      );
    expect(await expiries()).toEqual(['2026-12-01T12:00:00.000Z']);
    await advance(acme, '2026-12-02T12:00:00Z');
    expect(await status()).toBe('EXPIRED');
    expect(await expiries()).toEqual(['2026-12-02T12:00:00.000Z', '2026-12-01T12:00:00.000Z']);
  });

  it("when never moved, then reset answers wall time; one company's reset leaves another's clock ahead", async () => {
    await advance(globex, '2027-03-01T00:00:00Z');
    expect((await reset(acme)).data?.now).toBe('2026-11-20T15:00:00.000Z');
    expect(await nowOf(globex)).toBe('2027-03-01T00:00:00.000Z');
  });
});

describe('what the company clock drives', () => {
  it('when advanced past a card endDate, then the card is EXPIRED with vcn.expired at the new time, delivered by webhook', async () => {
    const endpoint = await acme.api.POST('/webhooks/v1/endpoints', {
      body: { url: receiver.url, enabledEvents: ['vcn.expired'] },
    });
    expect(endpoint.response.status).toBe(201);
    const card = await issue(acme, customRequest({ endDate: '2026-11-30' }));
    await advance(acme, '2026-12-01T12:00:00Z');
    const { data } = await acme.api.GET('/credit-cards/v1/vcns/{vcnId}', { params: { path: { vcnId: card.vcnId } } });
    expect(data?.status).toBe('EXPIRED');
    const events = await acme.api.GET('/events/v1/events', { params: { query: { types: ['vcn.expired'] } } });
    expect(events.data?.items).toHaveLength(1);
    expect(events.data?.items[0]?.createdAt).toBe('2026-12-01T12:00:00.000Z');
    const deliveries = await receiver.waitFor(1);
    expect(JSON.parse(deliveries.at(-1)!.body)).toMatchObject({
      type: 'vcn.expired',
      data: { object: { vcnId: card.vcnId } },
    });
  });

  it('when advanced within the window, then a new card is still ACTIVE and its purchases use the company day', async () => {
    const card = await issue(acme, customRequest({ startDate: '2026-11-25', endDate: '2026-11-30' }));
    const early = await acme.api.POST('/sandbox/v1/vcns/{vcnId}/authorizations', {
      params: { path: { vcnId: card.vcnId } },
      body: { amount: { value: 1, currency: 'BRL' }, merchant: { name: 'LOJA', mcc: '5999' } },
    });
    expect(early.data?.declineReason).toBe('NOT_YET_VALID');
    await advance(acme, '2026-11-26T12:00:00Z');
    const later = await acme.api.POST('/sandbox/v1/vcns/{vcnId}/authorizations', {
      params: { path: { vcnId: card.vcnId } },
      body: { amount: { value: 1, currency: 'BRL' }, merchant: { name: 'LOJA', mcc: '5999' } },
    });
    expect(later.data).toMatchObject({ approved: true, transaction: { date: '2026-11-26T12:00:00.000Z' } });
  });

  it('when advanced past a bill closing and due date, then the bill reads CLOSED, then OVERDUE', async () => {
    const created = await acme.api.POST('/sandbox/v1/credit-card-transactions', {
      body: {
        id: '01JD3Q5W2K8Z9Y7X6V5T4SBXYZ',
        cardId: 'c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e',
        finalCardNumber: '4021',
        bearerName: 'MARIANA COSTA',
        transactionDate: '2026-11-12T19:44:10-03:00',
        description: 'RESTAURANTE FIGUEIRA',
        merchantName: 'RESTAURANTE FIGUEIRA RUBAIYAT',
        mccCode: 5812,
        amount: 312.4,
        currency: 'BRL',
        brlAmount: 312.4,
        exchangeRate: null,
        iofAmount: 0,
        status: 2,
        notes: '',
        conciliation: { description: 'Not reconciled', conciled: false },
        category: { id: 'FOOD', description: 'Alimentação' },
        customCategory: null,
        costCenter: null,
        user: null,
      },
    });
    expect(created.response.status).toBe(201);
    const status = async () =>
      (await acme.api.GET('/credit-cards/v1/bills/{dueDate}', { params: { path: { dueDate: '2026-12-10' } } })).data
        ?.status;
    expect(await status()).toBe('OPEN');
    await advance(acme, '2026-12-05T12:00:00Z');
    expect(await status()).toBe('CLOSED');
    await advance(acme, '2026-12-11T12:00:00Z');
    expect(await status()).toBe('OVERDUE');
    expect(await (await globex.api.GET('/credit-cards/v1/bills')).data?.items).toEqual([]);
  });

  it('when advanced past an invite expiry, then it cannot be accepted', async () => {
    const roles = await createRoles(server.db, acme.companyId);
    await acme.api.POST('/users/v1/invites', { body: { roleId: roles.employee.id, email: 'ana@acme.com' } });
    const created = await acme.api.GET('/events/v1/events', { params: { query: { types: ['invite.created'] } } });
    const invite = created.data?.items[0]?.data.object as { id: string; expiresAt: string };
    expect(invite.expiresAt).toBe('2026-11-27T15:00:00.000Z');
    await advance(acme, '2026-11-27T15:00:00Z');
    const { response } = await acme.api.POST('/sandbox/v1/invites/{inviteId}/accept', {
      params: { path: { inviteId: invite.id } },
    });
    expect(response.status).toBe(409);
  });
});
