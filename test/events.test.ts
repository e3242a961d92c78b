// The event log: listing (newest first, filters, paging), reading one, scopes, 30-day retention.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  createAccount,
  createBankingTransaction,
  createCreditCardTransaction,
} from './support/factories/statements.js';
import { createCategory, createCostCenter } from './support/factories/directory.js';
import { recordEvent } from '../server/areas/events/log.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ deliveries: 'manual' });
});
afterAll(async () => server.close());

async function patched(tenant: TestCompany, body: { notes?: string; isConciled?: true }, status: 1 | 2 | 3 = 2) {
  const account = await createAccount(server.db, tenant.companyId);
  const id = await createBankingTransaction(server.db, tenant.companyId, account, { status });
  const { response } = await tenant.api.PATCH('/statements/v1/banking/{transactionId}', {
    params: { path: { transactionId: id } },
    body,
  });
  return { id, status: response.status, requestId: response.headers.get('X-Request-Id') };
}

describe('listEvents', () => {
  it('when transactions are annotated and reconciled, then one event per change, newest first, with the request id', async () => {
    const acme = await server.newCompany();
    const first = await patched(acme, { notes: 'Primeira' });
    const second = await patched(acme, { notes: 'Segunda', isConciled: true });
    const { data, response } = await acme.api.GET('/events/v1/events');
    expect(response.status).toBe(200);
    expect(data?.items.map((e) => [e.type, e.data.object.id, e.requestId])).toEqual([
      ['banking_transaction.reconciled', second.id, second.requestId],
      ['banking_transaction.updated', first.id, first.requestId],
    ]);
    expect(data?.items[1]?.data.previousAttributes).toEqual({ notes: expect.any(String) });
    expect(data?.items[0]?.data.object).toMatchObject({ conciliation: { conciled: true } });
  });

  it('when a PATCH changes every field of a banking and of a card transaction, then each event shows the transaction as its GET answers after', async () => {
    const acme = await server.newCompany();
    const category = await createCategory(server.db, acme.companyId);
    const costCenter = await createCostCenter(server.db, acme.companyId);
    const account = await createAccount(server.db, acme.companyId);
    const bankingId = await createBankingTransaction(server.db, acme.companyId, account, { status: 2 });
    const cardId = await createCreditCardTransaction(server.db, acme.companyId, { status: 2 });
    const body = {
      notes: 'Tudo muda',
      categoryId: category.id,
      costCenterId: costCenter.id,
      isConciled: true as const,
    };
    const banking = await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: bankingId } },
      body,
    });
    const card = await acme.api.PATCH('/statements/v1/credit-card/{transactionId}', {
      params: { path: { transactionId: cardId } },
      body,
    });
    expect([banking.response.status, card.response.status]).toEqual([204, 204]);
    const shown = [
      (await acme.api.GET('/statements/v1/banking/{transactionId}', { params: { path: { transactionId: bankingId } } }))
        .data,
      (
        await acme.api.GET('/statements/v1/credit-card/{transactionId}', {
          params: { path: { transactionId: cardId } },
        })
      ).data,
    ];
    expect(shown[0]).toMatchObject({
      costCenter: { description: costCenter.name },
      customCategory: { name: category.name },
    });
    const { data } = await acme.api.GET('/events/v1/events');
    expect(data?.items.map((e) => e.type)).toEqual([
      'credit_card_transaction.reconciled',
      'banking_transaction.reconciled',
    ]);
    expect(data?.items.map((e) => e.data.object).reverse()).toEqual(shown);
    for (const event of data!.items)
      expect(Object.keys(event.data.previousAttributes ?? {}).sort()).toEqual([
        'conciliation',
        'costCenter',
        'customCategory',
        'notes',
      ]);
  });

  it('when a change is refused, then no event is written', async () => {
    const acme = await server.newCompany();
    const refused = await patched(acme, { isConciled: true }, 3);
    expect(refused.status).toBe(409);
    const invalid = await patched(acme, { notes: 'x'.repeat(1001) });
    expect(invalid.status).toBe(400);
    const { data } = await acme.api.GET('/events/v1/events');
    expect(data?.items).toEqual([]);
  });

  it('when filtered by types and createdAfter, then only matching events; pages follow with nextPageStartKey', async () => {
    const acme = await server.newCompany();
    await patched(acme, { notes: 'a' });
    const cut = server.clock.now().toISOString();
    server.clock.advance(1000);
    for (const n of ['b', 'c', 'd']) await patched(acme, { notes: n });
    await patched(acme, { isConciled: true });

    const updated = await acme.api.GET('/events/v1/events', {
      params: { query: { types: ['banking_transaction.updated'], createdAfter: cut, limit: 2 } },
    });
    expect(updated.data?.items.map((e) => e.data.object.notes)).toEqual(['d', 'c']);
    const next = await acme.api.GET('/events/v1/events', {
      params: {
        query: {
          types: ['banking_transaction.updated'],
          createdAfter: cut,
          limit: 2,
          nextPageStartKey: updated.data!.nextPageStartKey!,
        },
      },
    });
    expect(next.data?.items.map((e) => e.data.object.notes)).toEqual(['b']);
    expect(next.data?.nextPageStartKey).toBeUndefined();

    const forged = await acme.api.GET('/events/v1/events', {
      params: { query: { limit: 2, nextPageStartKey: updated.data!.nextPageStartKey! } },
    });
    expect(forged.response.status).toBe(400);
  });

  it('when another company lists events, then it sees none of these', async () => {
    const acme = await server.newCompany();
    await patched(acme, { notes: 'Privado' });
    const globex = await server.newCompany();
    expect((await globex.api.GET('/events/v1/events')).data?.items).toEqual([]);
  });

  it('when the token lacks events:read, then 403', async () => {
    const limited = await server.newCompany({ scopes: ['statements:read'] });
    expect((await limited.api.GET('/events/v1/events')).response.status).toBe(403);
  });
});

describe('getEvent', () => {
  it('when the event exists, then 200 with it; of another company or older than 30 days, then 404', async () => {
    const acme = await server.newCompany();
    await patched(acme, { notes: 'Um' });
    const { data } = await acme.api.GET('/events/v1/events');
    const id = data!.items[0]!.id;
    const one = await acme.api.GET('/events/v1/events/{eventId}', { params: { path: { eventId: id } } });
    expect(one.data).toEqual(data!.items[0]);

    const globex = await server.newCompany();
    expect(
      (await globex.api.GET('/events/v1/events/{eventId}', { params: { path: { eventId: id } } })).response.status,
    ).toBe(404);

    const old = await recordEvent(server.db, new Date(server.clock.now().getTime() - 31 * 24 * 3600_000), {
      companyId: acme.companyId,
      type: 'cost_center.created',
      requestId: null,
      object: { id: 'x' },
    });
    expect(
      (await acme.api.GET('/events/v1/events/{eventId}', { params: { path: { eventId: old.id } } })).response.status,
    ).toBe(404);
    expect((await acme.api.GET('/events/v1/events')).data?.items.map((e) => e.id)).not.toContain(old.id);
  });
});
