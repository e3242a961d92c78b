// The sandbox's test helpers over HTTP: transactions arriving, card purchases and status changes,
// invites accepted — each scoped, per company, with its events.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../generated/openapi.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { aerialRequest, customRequest, fundedCompany, issue, reauthenticate } from './support/factories/vcn.js';
import { createAccount } from './support/factories/statements.js';
import { createRoles } from './support/factories/users.js';
import { createFinanceClient } from '../client/index.js';

type BankingCreate = components['schemas']['SandboxBankingTransactionCreate'];
type CardCreate = components['schemas']['SandboxCreditCardTransactionCreate'];

let server: TestServer;
let acme: TestCompany;
let globex: TestCompany;
let accountId: number;

beforeAll(async () => {
  server = await startTestServer();
  acme = await fundedCompany(server);
  globex = await fundedCompany(server);
  accountId = await createAccount(server.db, acme.companyId);
});
afterAll(async () => server.close());
beforeEach(async () => {
  server.clock.set('2026-11-20T15:00:00Z');
  acme = await reauthenticate(server, acme);
  globex = await reauthenticate(server, globex);
});

const banking = (overrides: Partial<BankingCreate> = {}): BankingCreate => ({
  transactionType: { id: 2, description: 'PIX enviado', icon: 'pix', subType: 'DEBIT' },
  status: 2,
  accountId,
  finalCardNumber: null,
  bearerName: null,
  transactionDate: '2026-11-17T14:02:11-03:00',
  brlAmount: 1890,
  usdAmount: null,
  usdExchangeRate: null,
  usdExchangeRateDate: null,
  totalTransactionAmount: 1890,
  iofAmount: 0,
  feeServiceAmount: 0,
  mccCode: null,
  mccGroup: null,
  mccDescription: null,
  idPurchaseEvent: null,
  sourceDestinationName: 'GRAFICA PAULISTA LTDA',
  placeEstablishment: null,
  description: 'PIX GRAFICA PAULISTA LTDA',
  notes: '',
  conciliation: { description: 'Not reconciled', conciled: false },
  category: { id: 'SERVICES', description: 'Serviços' },
  costCenter: null,
  user: null,
  requesterUser: null,
  customCategory: null,
  ...overrides,
});

let cardIds = 0;
const cardTransaction = (overrides: Partial<CardCreate> = {}): CardCreate => ({
  id: `01JD3Q5W2K8Z9Y7X6V5T4S${String(cardIds++).padStart(4, '0')}`,
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
  ...overrides,
});

const eventsOf = async (company: TestCompany, type: string) => {
  const { data } = await company.api.GET('/events/v1/events', { params: { query: { types: [type] } } });
  return data?.items ?? [];
};

describe('createSandboxBankingTransaction', () => {
  it('when one transaction is sent, then 201 with it as the banking list shows it, and statement.ingested', async () => {
    const { data, response } = await acme.api.POST('/sandbox/v1/banking-transactions', { body: banking() });
    expect(response.status).toBe(201);
    const created = data as components['schemas']['BankingTransaction'];
    const { data: list } = await acme.api.GET('/statements/v1/banking', { params: { query: {} } });
    expect(list?.transactions.find((t) => t.id === created.id)).toEqual(created);
    expect(created).toMatchObject({ brlAmount: 1890, statusDescription: 'PROCESSED', companyId: acme.companyId });
    expect((await eventsOf(acme, 'statement.ingested'))[0]?.data.object).toMatchObject({ banking: 1, creditCard: 0 });
  });

  it('when a batch of 1,000 is sent, then all are created in order; 1,001 is 400', async () => {
    const transactions = Array.from({ length: 1000 }, (_, i) =>
      banking({ brlAmount: i + 1, totalTransactionAmount: i + 1 }),
    );
    const { data, response } = await acme.api.POST('/sandbox/v1/banking-transactions', { body: { transactions } });
    expect(response.status).toBe(201);
    const created = (data as components['schemas']['SandboxBankingTransactions']).transactions;
    expect(created.map((t) => t.brlAmount)).toEqual(transactions.map((t) => t.brlAmount));
    const over = await acme.api.POST('/sandbox/v1/banking-transactions', {
      body: { transactions: [...transactions, banking()] },
    });
    expect(over.response.status).toBe(400);
  }, 90_000);

  it('when one line of a batch breaks a rule, then 400 naming it and nothing is stored', async () => {
    const before = await server.db
      .selectFrom('banking_transactions')
      .select('id')
      .where('company_id', '=', acme.companyId)
      .execute();
    const { error, response } = await acme.api.POST('/sandbox/v1/banking-transactions', {
      body: { transactions: [banking(), banking({ totalTransactionAmount: 1 })] },
    });
    expect(response.status).toBe(400);
    expect(error?.details).toEqual([
      'transactions[1]: transaction.totalTransactionAmount must equal brlAmount + iofAmount + feeServiceAmount',
    ]);
    const after = await server.db
      .selectFrom('banking_transactions')
      .select('id')
      .where('company_id', '=', acme.companyId)
      .execute();
    expect(after.length).toBe(before.length);
  });

  it("when the account is another company's, then 400 and nothing is stored", async () => {
    const { error, response } = await globex.api.POST('/sandbox/v1/banking-transactions', { body: banking() });
    expect(response.status).toBe(400);
    expect(error?.details).toEqual([`transaction.accountId ${accountId} is not an account of the company`]);
  });

  it('when the token lacks sandbox:write, then 403', async () => {
    const reader = await server.newCompany({ scopes: ['statements:read'] });
    const { response } = await reader.api.POST('/sandbox/v1/banking-transactions', { body: banking() });
    expect(response.status).toBe(403);
  });

  it('when the same Idempotency-Key is sent twice, then one transaction and the answer replayed', async () => {
    const headers = { 'Idempotency-Key': `sandbox-${Date.now()}` };
    const first = await acme.api.POST('/sandbox/v1/banking-transactions', { body: banking(), headers });
    const second = await acme.api.POST('/sandbox/v1/banking-transactions', { body: banking(), headers });
    expect(second.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(second.data).toEqual(first.data);
  });
});

describe('createSandboxCreditCardTransaction', () => {
  it('when one transaction is sent, then 201 with its bill, as the credit-card list shows it', async () => {
    const body = cardTransaction();
    const { data, response } = await acme.api.POST('/sandbox/v1/credit-card-transactions', { body });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ id: body.id, billDueDate: '2026-12-10', amount: 312.4 });
    const { data: bill } = await acme.api.GET('/credit-cards/v1/bills/{dueDate}', {
      params: { path: { dueDate: '2026-12-10' } },
    });
    expect(bill?.transactions.map((t) => t.id)).toContain(body.id);
  });

  it('when the id is taken, then 400 and nothing of the batch is stored', async () => {
    const taken = cardTransaction();
    await acme.api.POST('/sandbox/v1/credit-card-transactions', { body: taken });
    const fresh = cardTransaction();
    const { error, response } = await acme.api.POST('/sandbox/v1/credit-card-transactions', {
      body: { transactions: [fresh, taken] },
    });
    expect(response.status).toBe(400);
    expect(error?.details).toEqual([`transactions[1]: transaction.id ${taken.id} already exists`]);
    const stored = await server.db
      .selectFrom('credit_card_transactions')
      .select('id')
      .where('id', '=', fresh.id!)
      .execute();
    expect(stored).toEqual([]);
  });
});

const authorize = (company: TestCompany, vcnId: string, value: number, currency = 'BRL') =>
  company.api.POST('/sandbox/v1/vcns/{vcnId}/authorizations', {
    params: { path: { vcnId } },
    body: { amount: { value, currency }, merchant: { name: 'RESTAURANTE FIGUEIRA', mcc: '5812' } },
  });

describe('authorizeSandboxVcnPurchase', () => {
  it('when the purchase fits, then 201 approved and the card spent and purchaseCount grow', async () => {
    const card = await issue(acme, customRequest({ limit: { value: 100, currency: 'BRL' } }));
    const { data, response } = await authorize(acme, card.vcnId, 12.5);
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ approved: true, transaction: { status: 'APPROVED', amount: { value: 12.5 } } });
    expect(data?.vcn).toMatchObject({ spent: { value: 12.5, currency: 'BRL' }, purchaseCount: 1 });
    const [event] = await eventsOf(acme, 'vcn.authorized');
    expect(event?.data.object).toMatchObject({ vcnId: card.vcnId, spent: { value: 12.5 } });
    expect(event?.data.authorization).toEqual({
      transactionId: data?.transaction.transactionId,
      approved: true,
      amount: { value: 12.5, currency: 'BRL' },
      merchant: { name: 'RESTAURANTE FIGUEIRA', mcc: '5812' },
      date: data?.transaction.date,
      authorizationCode: data?.transaction.authorizationCode,
    });
    expect(event?.data.authorization?.authorizationCode).toMatch(/^[0-9A-Z]{6}$/);
  });

  it('when the purchase is over the limit, then declined LIMIT_EXCEEDED and nothing changes but vcn.declined', async () => {
    const card = await issue(acme, customRequest({ limit: { value: 10, currency: 'BRL' } }));
    const { data } = await authorize(acme, card.vcnId, 10.01);
    expect(data).toMatchObject({ approved: false, declineReason: 'LIMIT_EXCEEDED' });
    expect(data?.vcn).toMatchObject({ spent: { value: 0 }, purchaseCount: 0 });
    const [event] = await eventsOf(acme, 'vcn.declined');
    expect(event?.data.object).toMatchObject({ vcnId: card.vcnId, spent: { value: 0 } });
    expect(event?.data.authorization).toEqual({
      transactionId: data?.transaction.transactionId,
      approved: false,
      amount: { value: 10.01, currency: 'BRL' },
      merchant: { name: 'RESTAURANTE FIGUEIRA', mcc: '5812' },
      date: data?.transaction.date,
      declineReason: 'LIMIT_EXCEEDED',
    });
    expect((await authorize(acme, card.vcnId, 10)).data?.approved).toBe(true);
  });

  it('when the purchase count is used up, then declined PURCHASE_QUANTITY_EXCEEDED', async () => {
    const card = await issue(acme, aerialRequest()); // 2 purchases
    await authorize(acme, card.vcnId, 1);
    await authorize(acme, card.vcnId, 1);
    expect((await authorize(acme, card.vcnId, 1)).data).toMatchObject({ declineReason: 'PURCHASE_QUANTITY_EXCEEDED' });
  });

  it('when the day is before the window, then declined NOT_YET_VALID', async () => {
    const card = await issue(acme, customRequest({ startDate: '2026-11-25', endDate: '2026-11-30' }));
    expect((await authorize(acme, card.vcnId, 1)).data).toMatchObject({ declineReason: 'NOT_YET_VALID' });
  });

  it('when the card is blocked, cancelled or expired, then declined with that reason', async () => {
    const initech = await fundedCompany(server); // its clock moves
    const card = await issue(initech, customRequest({ endDate: '2026-11-21' }));
    const block = await initech.api.POST('/sandbox/v1/vcns/{vcnId}/block', { params: { path: { vcnId: card.vcnId } } });
    expect(block.data?.status).toBe('BLOCKED');
    expect((await authorize(initech, card.vcnId, 1)).data).toMatchObject({ declineReason: 'CARD_BLOCKED' });
    const unblock = await initech.api.POST('/sandbox/v1/vcns/{vcnId}/unblock', {
      params: { path: { vcnId: card.vcnId } },
    });
    expect(unblock.data?.status).toBe('ACTIVE');
    await initech.api.POST('/sandbox/v1/clock/advance', { body: { to: '2026-11-23T15:00:00Z' } });
    expect((await authorize(initech, card.vcnId, 1)).data).toMatchObject({ declineReason: 'CARD_EXPIRED' });
    const cancel = await initech.api.POST('/sandbox/v1/vcns/{vcnId}/cancel', {
      params: { path: { vcnId: card.vcnId } },
    });
    expect(cancel.data?.status).toBe('CANCELLED');
    expect((await authorize(initech, card.vcnId, 1)).data).toMatchObject({ declineReason: 'CARD_CANCELLED' });
    const again = await initech.api.POST('/sandbox/v1/vcns/{vcnId}/unblock', {
      params: { path: { vcnId: card.vcnId } },
    });
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ code: 'vcn-not-active' });
  });

  it("when the card is another company's, then 404 and nothing is recorded", async () => {
    const card = await issue(acme, customRequest());
    const { response, error } = await authorize(globex, card.vcnId, 1);
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: 'vcn-not-found' });
    const blocked = await globex.api.POST('/sandbox/v1/vcns/{vcnId}/block', {
      params: { path: { vcnId: card.vcnId } },
    });
    expect(blocked.response.status).toBe(404);
  });

  it("when the purchase is not in the card's currency, then 400 invalid-vcn-request", async () => {
    const card = await issue(acme, customRequest());
    const { response, error } = await authorize(acme, card.vcnId, 1, 'USD');
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'invalid-vcn-request' });
  });
});

const statusChange = (company: TestCompany, action: 'block' | 'unblock' | 'cancel', vcnId: string) =>
  company.api.POST(`/sandbox/v1/vcns/{vcnId}/${action}`, { params: { path: { vcnId } } });

describe('blockSandboxVcn', () => {
  it('when an active card is blocked, then 200 BLOCKED and vcn.blocked once; blocking again changes nothing', async () => {
    const card = await issue(acme, customRequest());
    const { data, response } = await statusChange(acme, 'block', card.vcnId);
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ vcnId: card.vcnId, status: 'BLOCKED' });
    expect((await statusChange(acme, 'block', card.vcnId)).data?.status).toBe('BLOCKED');
    const events = await eventsOf(acme, 'vcn.blocked');
    expect(events.filter((e) => (e.data.object as { vcnId: string }).vcnId === card.vcnId)).toHaveLength(1);
  });
});

describe('unblockSandboxVcn', () => {
  it('when a blocked card is unblocked, then 200 ACTIVE and vcn.unblocked; a card of another company is 404', async () => {
    const card = await issue(acme, customRequest());
    await statusChange(acme, 'block', card.vcnId);
    expect((await statusChange(globex, 'unblock', card.vcnId)).response.status).toBe(404);
    const { data } = await statusChange(acme, 'unblock', card.vcnId);
    expect(data?.status).toBe('ACTIVE');
    expect((await eventsOf(acme, 'vcn.unblocked'))[0]?.data.object).toMatchObject({ vcnId: card.vcnId });
  });
});

describe('cancelSandboxVcn', () => {
  it('when a card is cancelled, then 200 CANCELLED, vcn.cancelled, and it cannot be blocked any more', async () => {
    const card = await issue(acme, customRequest());
    expect((await statusChange(acme, 'cancel', card.vcnId)).data?.status).toBe('CANCELLED');
    expect((await eventsOf(acme, 'vcn.cancelled'))[0]?.data.object).toMatchObject({ vcnId: card.vcnId });
    const block = await statusChange(acme, 'block', card.vcnId);
    expect(block.response.status).toBe(409);
    expect(block.error).toMatchObject({ code: 'vcn-not-active' });
  });
});

describe('finance.sandbox', () => {
  it('when the typed client drives the helpers, then it answers their bodies and throws their errors', async () => {
    const finance = createFinanceClient({
      baseUrl: server.baseUrl,
      clientId: acme.clientId,
      clientSecret: acme.clientSecret,
    });
    const card = await issue(acme, customRequest({ limit: { value: 50, currency: 'BRL' } }));
    const approved = await finance.sandbox.authorizeVcnPurchase(card.vcnId, {
      amount: { value: 12.5, currency: 'BRL' },
      merchant: { name: 'RESTAURANTE FIGUEIRA', mcc: '5812' },
    });
    expect(approved).toMatchObject({ approved: true, vcn: { purchaseCount: 1 } });
    expect((await finance.sandbox.blockVcn(card.vcnId)).status).toBe('BLOCKED');
    const [first] = await finance.sandbox.createBankingTransactions([banking()]);
    expect(first?.companyId).toBe(acme.companyId);
    expect(await finance.sandbox.clock.get()).toBe((await acme.api.GET('/sandbox/v1/clock')).data?.now);
    await expect(finance.sandbox.clock.advance('2026-01-01T00:00:00Z')).rejects.toMatchObject({ status: 400 });
  });
});

describe('acceptSandboxInvite', () => {
  it('when a pending invite is accepted, then 200 with the new user and invite.accepted; again, 409', async () => {
    const roles = await createRoles(server.db, globex.companyId);
    await globex.api.POST('/users/v1/invites', { body: { roleId: roles.manager.id, email: 'joao@globex.com' } });
    const [created] = await eventsOf(globex, 'invite.created');
    const inviteId = (created!.data.object as { id: string }).id;
    const { data, response } = await globex.api.POST('/sandbox/v1/invites/{inviteId}/accept', {
      params: { path: { inviteId } },
      body: { name: 'João Pereira' },
    });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ email: 'joao@globex.com', name: 'João Pereira', active: true });
    expect((await eventsOf(globex, 'invite.accepted')).length).toBe(1);
    const again = await globex.api.POST('/sandbox/v1/invites/{inviteId}/accept', { params: { path: { inviteId } } });
    expect(again.response.status).toBe(409);
    const elsewhere = await acme.api.POST('/sandbox/v1/invites/{inviteId}/accept', { params: { path: { inviteId } } });
    expect(elsewhere.response.status).toBe(404);
  });
});
