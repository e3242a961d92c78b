// The transaction helpers with as little as an amount: the rest filled in, consistent and realistic;
// and every number of every sandbox operation bounded as the statement's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createAccount } from './support/factories/statements.js';
import { fundedCompany, issue, customRequest } from './support/factories/vcn.js';

let server: TestServer;
let acme: TestCompany;
let firstAccount: number;

beforeAll(async () => {
  server = await startTestServer();
  acme = await fundedCompany(server);
  firstAccount = await createAccount(server.db, acme.companyId);
  await createAccount(server.db, acme.companyId);
});
afterAll(async () => server.close());

const post = (path: string, body: unknown) =>
  fetch(server.baseUrl + path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${acme.token}`, 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('sandbox transaction helpers with defaults', () => {
  it('when only brlAmount is sent, then 201 with a PIX sent on the first account, consistent totals', async () => {
    const { data, response } = await acme.api.POST('/sandbox/v1/banking-transactions', {
      body: { brlAmount: 150.25 },
    });
    expect(response.status).toBe(201);
    expect(data).toMatchObject({
      accountId: firstAccount,
      brlAmount: 150.25,
      totalTransactionAmount: 150.25,
      iofAmount: 0,
      feeServiceAmount: 0,
      status: 2,
      statusDescription: 'PROCESSED',
      transactionType: { subType: 'DEBIT' },
      conciliation: { conciled: false },
    });
    const { data: listed } = await acme.api.GET('/statements/v1/banking', { params: { query: {} } });
    expect(listed?.transactions.some((t) => t.id === (data as { id: number }).id)).toBe(true);
  });

  it('when description, direction, date and status are sent, then they are kept', async () => {
    const { data, error } = await acme.api.POST('/sandbox/v1/banking-transactions', {
      body: {
        brlAmount: 99.9,
        description: 'PIX test',
        direction: 'CREDIT',
        transactionDate: '2026-11-17T14:02:11-03:00',
        status: 3,
      },
    });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({
      description: 'PIX test',
      transactionType: { subType: 'CREDIT' },
      transactionDate: '2026-11-17T14:02:11-03:00',
      status: 3,
    });
  });

  it('when a card purchase type is sent without a merchant category, then a valid MCC is filled', async () => {
    const { data, error } = await acme.api.POST('/sandbox/v1/banking-transactions', {
      body: {
        brlAmount: 80,
        transactionType: { id: 1, description: 'Compra no cartão', icon: 'credit-card', subType: 'DEBIT' },
      },
    });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ mccCode: 5812, mccGroup: 1, mccDescription: 'Restaurantes' });
  });

  it('when direction contradicts transactionType, then 400', async () => {
    const res = await post('/sandbox/v1/banking-transactions', {
      brlAmount: 1,
      direction: 'CREDIT',
      transactionType: { id: 2, description: 'PIX enviado', icon: 'pix', subType: 'DEBIT' },
    });
    expect(res.status).toBe(400);
  });

  it('when only amount is sent to the card helper, then 201 with a BRL purchase, a valid MCC, the same card twice', async () => {
    const first = await acme.api.POST('/sandbox/v1/credit-card-transactions', { body: { amount: 42.5 } });
    expect(first.error).toBeUndefined();
    expect(first.data).toMatchObject({ amount: 42.5, brlAmount: 42.5, currency: 'BRL', mccCode: 5812, status: 2 });
    expect((first.data as { finalCardNumber: string }).finalCardNumber).toMatch(/^[0-9]{4}$/);
    const second = await acme.api.POST('/sandbox/v1/credit-card-transactions', {
      body: { amount: 10, description: 'UBER test', mccCode: 4121 },
    });
    expect(second.data).toMatchObject({ description: 'UBER test', mccCode: 4121, category: { id: 'TRANSPORT' } });
    expect((second.data as { cardId: string }).cardId).toBe((first.data as { cardId: string }).cardId);
  });

  it('when a batch of minimal lines is sent, then all are created', async () => {
    const { data, error } = await acme.api.POST('/sandbox/v1/banking-transactions', {
      body: { transactions: [{ brlAmount: 1 }, { brlAmount: 2, direction: 'CREDIT' }] },
    });
    expect(error).toBeUndefined();
    expect((data as { transactions: unknown[] }).transactions).toHaveLength(2);
  });
});

describe('sandbox bodies that are an item or a batch', () => {
  const problems = async (res: Response) => {
    expect(res.status).toBe(400);
    return (await res.json()) as { message: string; param: string; details: string[] };
  };

  it('when one transaction has a wrong field, then 400 names only that field, not the batch’s complaints', async () => {
    const body = await problems(await post('/sandbox/v1/banking-transactions', { brlAmount: 10.5, notes: null }));
    expect(body.param).toBe('notes');
    expect(body.details).toEqual(['notes must be a string (got null)']);
    expect(body.message).not.toContain('transactions');
    expect(body.message).not.toContain('did you mean');
  });

  it('when one item of a batch is wrong, then 400 names that item and field, and nothing about the others', async () => {
    const res = await post('/sandbox/v1/credit-card-transactions', {
      transactions: [{ amount: 10.5 }, { amount: 'ten' }, { amount: 3 }],
    });
    const body = await problems(res);
    expect(body.param).toBe('transactions.1.amount');
    expect(body.details).toEqual(['transactions.1.amount must be a number (got "ten")']);
  });

  it('when a field is unknown to a single transaction, then it is named once, with no suggestion of itself', async () => {
    const body = await problems(await post('/sandbox/v1/banking-transactions', { brlAmount: 1, bogus: 1 }));
    expect(body.details).toEqual(['Unknown field "bogus" in the body']);
  });
});

describe('hostile numbers on the sandbox', () => {
  const hostile = ['1e308', '-1e308', '1e-300'];

  it.each(hostile)('when a banking number is %s, then 400 in the error body', async (value) => {
    for (const field of [
      'brlAmount',
      'iofAmount',
      'feeServiceAmount',
      'totalTransactionAmount',
      'usdAmount',
      'usdExchangeRate',
      'accountId',
      'mccCode',
      'status',
    ]) {
      const body = field === 'brlAmount' ? `{"brlAmount": ${value}}` : `{"brlAmount": 1, "${field}": ${value}}`;
      const res = await post('/sandbox/v1/banking-transactions', body);
      const answer = (await res.json()) as Record<string, unknown>;
      expect(res.status, `${field}=${value}: ${JSON.stringify(answer)}`).toBe(400);
      expect(answer).toMatchObject({ code: 400, requestId: res.headers.get('x-request-id') });
    }
  });

  it.each(hostile)('when a card transaction number is %s, then 400 in the error body', async (value) => {
    for (const field of ['amount', 'brlAmount', 'iofAmount', 'exchangeRate', 'mccCode', 'status']) {
      const body = field === 'amount' ? `{"amount": ${value}}` : `{"amount": 1, "${field}": ${value}}`;
      const res = await post('/sandbox/v1/credit-card-transactions', body);
      const answer = (await res.json()) as Record<string, unknown>;
      expect(res.status, `${field}=${value}: ${JSON.stringify(answer)}`).toBe(400);
      expect(answer).toMatchObject({ code: 400, requestId: res.headers.get('x-request-id') });
    }
  });

  it.each(hostile)('when a card purchase amount is %s, then 400 in the error body', async (value) => {
    const card = await issue(acme, customRequest());
    const res = await post(
      `/sandbox/v1/vcns/${card.vcnId}/authorizations`,
      `{"amount": {"value": ${value}, "currency": "BRL"}, "merchant": {"name": "HOTEL", "mcc": "7011"}}`,
    );
    const answer = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(answer)).toBe(400);
    expect(answer).toMatchObject({ requestId: res.headers.get('x-request-id') });
  });
});
