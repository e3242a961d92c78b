import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createCard, createCreditCardTransaction } from './support/factories/statements.js';
import { createUser, createRoles } from './support/factories/users.js';
import { createCostCenter, expectError } from './support/factories/directory.js';
import { paginators } from '../client/paginate.js';
import type { components } from '../generated/openapi.js';
import { seedCompany } from '../server/cli/seed.js';
import { ingestFile } from '../server/areas/statements/ingest/run.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type CardCreate = components['schemas']['SandboxCreditCardTransactionCreate'];

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

const SHARED_CARD = 'c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e';
let purchases = 0;
const purchase = (cardId: string, overrides: Partial<CardCreate> = {}): CardCreate => ({
  id: `01JD3Q5W2K8Z9Y7X6V5T4C${String(purchases++).padStart(4, '0')}`,
  cardId,
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
  ...overrides,
});

const eventsOf = async (company: TestCompany, type: string) => {
  const { data } = await company.api.GET('/events/v1/events', { params: { query: { types: [type] } } });
  return data?.items ?? [];
};

const raw = (company: TestCompany, path: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${company.token}`, 'Content-Type': 'application/json', ...init.headers },
  });

describe('listCards', () => {
  it('when the statement names a card, then the list resolves its cardId with the live fields, and another company with the same card id sees only its own', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const roles = await createRoles(server.db, acme.companyId);
    const mariana = await createUser(server.db, acme.companyId, {
      role_id: roles.responsible.id,
      name: 'Mariana Costa',
      email: 'Mariana.Costa@acme.com.br',
    });
    await createCreditCardTransaction(server.db, acme.companyId, { user_id: mariana.id });
    await createCreditCardTransaction(server.db, globex.companyId, { final_card_number: '9999', bearer_name: 'OUTRA' });
    const { data: statement } = await acme.api.GET('/statements/v1/credit-card');
    const cardId = statement?.transactions[0]?.cardId;
    expect(cardId).toBe(SHARED_CARD);

    const { data, response } = await acme.api.GET('/credit-cards/v1/cards');
    expect(response.status).toBe(200);
    expect(response.headers.get('ETag')).toBeTruthy();
    expect(data).toEqual({
      items: [
        {
          id: SHARED_CARD,
          maskedNumber: '**** **** **** 4021',
          cardHolderName: 'MARIANA COSTA',
          responsible: { name: 'Mariana Costa', email: 'Mariana.Costa@acme.com.br' },
          type: 'PHYSICAL',
          status: 'ACTIVATED',
          createdAt: '2026-11-01T12:00:00.000Z',
          updatedAt: '2026-11-01T12:00:00.000Z',
          expirationDate: '2030-11-30',
          formattedExpirationDate: '11/30',
          name: 'Cartão final 4021',
          costCenter: null,
          purpose: null,
          productName: 'Corporate Platinum',
        },
      ],
      limit: 10,
    });
    const { data: theirs } = await globex.api.GET('/credit-cards/v1/cards');
    expect(theirs?.items.map((c) => `${c.id} ${c.maskedNumber} ${c.cardHolderName}`)).toEqual([
      `${SHARED_CARD} **** **** **** 9999 OUTRA`,
    ]);
  });

  it('when filters are given, then last4, type, status, email and productName keep the matching cards, combined', async () => {
    const acme = await server.newCompany();
    const other = await server.newCompany();
    const roles = await createRoles(server.db, acme.companyId);
    const bruno = await createUser(server.db, acme.companyId, {
      role_id: roles.responsible.id,
      email: 'bruno@acme.com.br',
    });
    const marketing = await createCostCenter(server.db, acme.companyId, { name: 'Marketing' });
    await createCard(server.db, other.companyId, { last4: '1111' });
    const physical = await createCard(server.db, acme.companyId, { last4: '1111', responsible_user_id: bruno.id });
    const virtual = await createCard(server.db, acme.companyId, {
      last4: '2222',
      type: 'VIRTUAL',
      product_name: 'Corporate Virtual',
      cost_center_id: marketing.id,
      purpose: 'Assinaturas',
    });
    const blocked = await createCard(server.db, acme.companyId, { last4: '1111', status: 'BLOCKED' });
    const ids = async (query: Record<string, string>) =>
      (await acme.api.GET('/credit-cards/v1/cards', { params: { query } })).data?.items.map((c) => c.id);
    expect(await ids({})).toEqual([blocked.id, virtual.id, physical.id]);
    expect(await ids({ last4: '1111' })).toEqual([blocked.id, physical.id]);
    expect(await ids({ last4: '1111', status: 'ACTIVATED' })).toEqual([physical.id]);
    expect(await ids({ type: 'VIRTUAL' })).toEqual([virtual.id]);
    expect(await ids({ type: 'VIRTUAL', last4: '1111' })).toEqual([]);
    expect(await ids({ email: 'BRUNO@acme.com.br' })).toEqual([physical.id]);
    expect(await ids({ email: 'nobody@acme.com.br' })).toEqual([]);
    expect(await ids({ productName: 'corporate virtual' })).toEqual([virtual.id]);
    expect(await ids({ status: 'CANCELLED' })).toEqual([]);
    const { data } = await acme.api.GET('/credit-cards/v1/cards', { params: { query: { type: 'VIRTUAL' } } });
    expect(data?.items[0]).toMatchObject({
      costCenter: { id: marketing.id, name: 'Marketing' },
      purpose: 'Assinaturas',
      responsible: null,
      productName: 'Corporate Virtual',
    });
  });

  it('when a filter is outside its list or pattern, or limit out of 1..100, then 400 naming the parameter', async () => {
    const acme = await server.newCompany();
    for (const [query, param] of [
      ['status=ACTIVE', 'status'],
      ['type=PLASTIC', 'type'],
      ['last4=123', 'last4'],
      ['last4=12345', 'last4'],
      ['last4=12a4', 'last4'],
      ['email=not-an-address', 'email'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['nextPageStartKey=tampered', 'nextPageStartKey'],
    ] as const) {
      const res = await raw(acme, `/credit-cards/v1/cards?${query}`);
      expect(res.status, query).toBe(400);
      const body = await res.json();
      expect(body.code).toBe(400);
      expect(body.param).toBe(param);
    }
    for (const limit of [1, 100]) {
      const { data } = await acme.api.GET('/credit-cards/v1/cards', { params: { query: { limit } } });
      expect(data?.limit).toBe(limit);
    }
  });

  it('when pages of 2 are followed, then every card appears once, and a cursor sent with other filters is 400', async () => {
    const acme = await server.newCompany();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createCard(server.db, acme.companyId));
    const seen: string[] = [];
    for await (const card of paginators(acme.api).cards({ limit: 2 })) seen.push(card.id);
    expect(seen).toEqual(made.reverse().map((c) => c.id));
    const first = await acme.api.GET('/credit-cards/v1/cards', { params: { query: { limit: 2 } } });
    expect(first.data?.items).toHaveLength(2);
    const other = await acme.api.GET('/credit-cards/v1/cards', {
      params: { query: { limit: 2, type: 'PHYSICAL', nextPageStartKey: first.data?.nextPageStartKey } },
    });
    expectError(other, 400);
    const theirs = await (await server.newCompany()).api.GET('/credit-cards/v1/cards', {
      params: { query: { limit: 2, nextPageStartKey: first.data?.nextPageStartKey } },
    });
    expectError(theirs, 400);
  });

  it('when a company is seeded, then it has physical, virtual and cancelled cards, and every cardId of its statement is one of them', async () => {
    const acme = await server.newCompany();
    await createCard(server.db, (await server.newCompany()).companyId);
    await seedCompany(server.db, { companyId: acme.companyId, transactions: 40, seed: 3, clock: server.clock });
    const cards = [];
    for await (const card of paginators(acme.api).cards({ limit: 100 })) cards.push(card);
    expect(new Set(cards.map((c) => `${c.type} ${c.status}`))).toEqual(
      new Set(['PHYSICAL ACTIVATED', 'VIRTUAL ACTIVATED', 'PHYSICAL CANCELLED']),
    );
    expect(cards.filter((c) => c.type === 'PHYSICAL' && c.status === 'ACTIVATED').every((c) => c.responsible)).toBe(
      true,
    );
    const ids = new Set(cards.map((c) => c.id));
    const { data } = await acme.api.GET('/statements/v1/credit-card', { params: { query: { limit: 100 } } });
    expect(data?.transactions.length).toBeGreaterThan(0);
    for (const t of data?.transactions ?? []) {
      expect(ids).toContain(t.cardId);
      const card = cards.find((c) => c.id === t.cardId);
      expect(card?.maskedNumber.slice(-4)).toBe(t.finalCardNumber);
    }
  });

  it('when an ingested file names a new card, then the card is listed with its number and holder', async () => {
    const acme = await server.newCompany();
    const dir = mkdtempSync(join(tmpdir(), 'cards-ingest-'));
    try {
      const path = join(dir, 'cards.jsonl');
      const cardId = '5d2e8c1a-7b3f-4e9d-a1c2-b3d4e5f6a7b8';
      const { id: _, ...line } = purchase(cardId, { finalCardNumber: '3141', bearerName: 'JOANA PRADO' });
      writeFileSync(
        path,
        `${JSON.stringify({ statement: 'credit-card', transaction: { id: '01KA00000000000000000000C1', ...line } })}\n`,
      );
      await ingestFile(server.db, server.index, acme.companyId, path, server.clock.now());
      const { data } = await acme.api.GET('/credit-cards/v1/cards', { params: { query: { last4: '3141' } } });
      expect(data?.items.map((c) => [c.id, c.cardHolderName, c.status, c.type])).toEqual([
        [cardId, 'JOANA PRADO', 'ACTIVATED', 'PHYSICAL'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the token lacks cards:read, then 403; without a token, 401', async () => {
    const acme = await server.newCompany({ scopes: ['statements:read'] });
    expectError(await acme.api.GET('/credit-cards/v1/cards'), 403);
    expect((await server.anonymous.GET('/credit-cards/v1/cards')).response.status).toBe(401);
  });
});

describe('blockCard', () => {
  it('when a card is blocked with a reason, then it is BLOCKED, card.blocked names the reason and the client, and a sandbox purchase on it is declined', async () => {
    const acme = await server.newCompany();
    await acme.api.POST('/sandbox/v1/credit-card-transactions', { body: purchase(SHARED_CARD) });
    const { data, response } = await acme.api.POST('/credit-cards/v1/{id}/block', {
      params: { path: { id: SHARED_CARD.toUpperCase() } },
      body: { reason: 'Cartão perdido em viagem' },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: SHARED_CARD, status: 'BLOCKED', updatedAt: server.clock.now().toISOString() });
    const { data: list } = await acme.api.GET('/credit-cards/v1/cards', { params: { query: { status: 'BLOCKED' } } });
    expect(list?.items.map((c) => c.id)).toEqual([SHARED_CARD]);

    const [event, ...more] = await eventsOf(acme, 'card.blocked');
    expect(more).toEqual([]);
    expect(event?.data).toEqual({
      object: data,
      previousAttributes: { status: 'ACTIVATED', updatedAt: expect.any(String) },
      action: { clientId: acme.clientId, reason: 'Cartão perdido em viagem' },
    });

    const declined = await acme.api.POST('/sandbox/v1/credit-card-transactions', {
      body: { transactions: [purchase(randomCard()), purchase(SHARED_CARD)] },
    });
    expect(declined.response.status).toBe(422);
    expect(declined.error?.message).toContain('Cartão perdido em viagem');
    expect(declined.error?.details).toEqual([
      'transactions[1].cardId: declined, the card is BLOCKED: Cartão perdido em viagem',
    ]);
    const { data: statement } = await acme.api.GET('/statements/v1/credit-card');
    expect(statement?.transactions).toHaveLength(1);

    const again = await acme.api.POST('/credit-cards/v1/{id}/block', { params: { path: { id: SHARED_CARD } } });
    expect(again.data?.status).toBe('BLOCKED');
    expect(await eventsOf(acme, 'card.blocked')).toHaveLength(1);
  });

  it('when the card is unknown, of another company, or CANCELLED, or the reason is empty or too long, then 404, 404, 409, 400', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const theirs = await createCard(server.db, globex.companyId);
    const cancelled = await createCard(server.db, acme.companyId, { status: 'CANCELLED' });
    const inactive = await createCard(server.db, acme.companyId, { status: 'INACTIVATED' });
    const mine = await createCard(server.db, acme.companyId);
    const block = (id: string, body?: { reason: string }) =>
      acme.api.POST('/credit-cards/v1/{id}/block', { params: { path: { id } }, ...(body ? { body } : {}) });
    expectError(await block('0b8e6c1a-9d7f-4e2a-8c5b-3f1d2e4a6b8c'), 404);
    expectError(await block(theirs.id), 404);
    expectError(await block('not-a-uuid'), 404);
    expectError(await block('x'.repeat(65)), 400);
    expect(expectError(await block(cancelled.id), 409)).toEqual(['status: CANCELLED']);
    expectError(await block(inactive.id), 409);
    expectError(await block(mine.id, { reason: '' }), 400);
    expectError(await block(mine.id, { reason: 'x'.repeat(501) }), 400);
    const extra = await raw(acme, `/credit-cards/v1/${mine.id}/block`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'ok', status: 'BLOCKED' }),
    });
    expect(extra.status).toBe(400);
    expect((await block(mine.id, { reason: 'x'.repeat(500) })).data?.status).toBe('BLOCKED');
    const { data } = await globex.api.GET('/credit-cards/v1/cards');
    expect(data?.items.map((c) => c.status)).toEqual(['ACTIVATED']);
    expect(await eventsOf(globex, 'card.blocked')).toEqual([]);
  });

  it('when the same Idempotency-Key is sent twice, then the first answer is replayed and one event recorded', async () => {
    const acme = await server.newCompany();
    const card = await createCard(server.db, acme.companyId);
    const send = () =>
      raw(acme, `/credit-cards/v1/${card.id}/block`, {
        method: 'POST',
        headers: { 'Idempotency-Key': 'block-once-1' },
        body: JSON.stringify({ reason: 'Suspeita de fraude' }),
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
    expect(await eventsOf(acme, 'card.blocked')).toHaveLength(1);
  });

  it('when the token lacks cards:write, then 403 and the card is unchanged', async () => {
    const acme = await server.newCompany({ scopes: ['cards:read'] });
    const card = await createCard(server.db, acme.companyId);
    expectError(await acme.api.POST('/credit-cards/v1/{id}/block', { params: { path: { id: card.id } } }), 403);
    const { data } = await acme.api.GET('/credit-cards/v1/cards');
    expect(data?.items[0]?.status).toBe('ACTIVATED');
  });
});

describe('unblockCard', () => {
  it('when a blocked card is unblocked, then it is ACTIVATED, card.unblocked names the client, and purchases are accepted again', async () => {
    const acme = await server.newCompany();
    const card = await createCard(server.db, acme.companyId, { status: 'BLOCKED', block_reason: 'Perdido' });
    const declined = await acme.api.POST('/sandbox/v1/credit-card-transactions', { body: purchase(card.id) });
    expect(declined.response.status).toBe(422);
    const { data, response } = await acme.api.POST('/credit-cards/v1/{id}/unblock', {
      params: { path: { id: card.id } },
    });
    expect(response.status).toBe(200);
    expect(data?.status).toBe('ACTIVATED');
    const [event] = await eventsOf(acme, 'card.unblocked');
    expect(event?.data).toMatchObject({
      object: { id: card.id, status: 'ACTIVATED' },
      previousAttributes: { status: 'BLOCKED' },
      action: { clientId: acme.clientId, reason: null },
    });
    const accepted = await acme.api.POST('/sandbox/v1/credit-card-transactions', { body: purchase(card.id) });
    expect(accepted.response.status).toBe(201);
    const again = await acme.api.POST('/credit-cards/v1/{id}/unblock', { params: { path: { id: card.id } } });
    expect(again.data?.status).toBe('ACTIVATED');
    expect(await eventsOf(acme, 'card.unblocked')).toHaveLength(1);
  });

  it('when the card is CANCELLED or INACTIVATED, then 409; unknown or another company’s, 404', async () => {
    const acme = await server.newCompany();
    const globex = await server.newCompany();
    const theirs = await createCard(server.db, globex.companyId, { status: 'BLOCKED' });
    const cancelled = await createCard(server.db, acme.companyId, { status: 'CANCELLED' });
    const inactive = await createCard(server.db, acme.companyId, { status: 'INACTIVATED' });
    const unblock = (id: string) => acme.api.POST('/credit-cards/v1/{id}/unblock', { params: { path: { id } } });
    expect(expectError(await unblock(cancelled.id), 409)).toEqual(['status: CANCELLED']);
    expect(expectError(await unblock(inactive.id), 409)).toEqual(['status: INACTIVATED']);
    expectError(await unblock(theirs.id), 404);
    expectError(await unblock('0b8e6c1a-9d7f-4e2a-8c5b-3f1d2e4a6b8c'), 404);
    const { data } = await globex.api.GET('/credit-cards/v1/cards');
    expect(data?.items[0]?.status).toBe('BLOCKED');
    expect(await eventsOf(acme, 'card.unblocked')).toEqual([]);
  });
});

function randomCard(): string {
  return crypto.randomUUID();
}
