// Sandbox purchases (ceiling, window, purchase count, status) and listVcnTransactions.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  aerialRequest,
  customRequest,
  expectVcnError,
  fundedCompany,
  issue,
  purchase,
  reauthenticate,
  setStatus,
} from './support/factories/vcn.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await fundedCompany(server);
});
afterAll(async () => server.close());
beforeEach(async () => {
  server.clock.set('2026-11-20T15:00:00Z');
  acme = await reauthenticate(server, acme);
});

type ListQuery = {
  limit?: number;
  startDate?: string;
  endDate?: string;
  status?: Array<'APPROVED' | 'DECLINED'>;
  nextPageStartKey?: string;
};
const list = (vcnId: string, query: ListQuery = {}, company = acme) =>
  company.api.GET('/credit-cards/v1/vcns/{vcnId}/transactions', { params: { path: { vcnId }, query } });
const card = (overrides = {}) => issue(acme, customRequest({ limit: { value: 100, currency: 'BRL' }, ...overrides }));
const at = (iso: string) => server.clock.set(iso);

describe('sandbox purchases', () => {
  it('when purchases stay within the ceiling, then they are approved with an authorization code; the one beyond is declined', async () => {
    const vcn = await card();
    expect(await purchase(server, vcn.vcnId, 60)).toMatchObject({ status: 'APPROVED', decline_reason: null });
    expect((await purchase(server, vcn.vcnId, 40)).authorization_code).toMatch(/^[0-9A-Z]{6}$/);
    expect(await purchase(server, vcn.vcnId, 0.01)).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'LIMIT_EXCEEDED',
      authorization_code: null,
    });
  });

  it('when the purchase count is used up, then the next purchase is declined', async () => {
    const vcn = await issue(acme, aerialRequest()); // 2 purchases by default
    await purchase(server, vcn.vcnId, 1);
    await purchase(server, vcn.vcnId, 1);
    expect((await purchase(server, vcn.vcnId, 1)).decline_reason).toBe('PURCHASE_QUANTITY_EXCEEDED');
  });

  it('when declined purchases happen, then they do not count against the ceiling or the count', async () => {
    const vcn = await card({ maxPurchaseQuantity: 1 });
    expect((await purchase(server, vcn.vcnId, 150)).status).toBe('DECLINED');
    expect((await purchase(server, vcn.vcnId, 100)).status).toBe('APPROVED');
  });

  it('when the card is blocked, unblocked or cancelled, then purchases follow its status', async () => {
    const vcn = await card();
    await setStatus(server, vcn.vcnId, 'BLOCKED');
    expect((await purchase(server, vcn.vcnId, 1)).decline_reason).toBe('CARD_BLOCKED');
    await setStatus(server, vcn.vcnId, 'ACTIVE');
    expect((await purchase(server, vcn.vcnId, 1)).status).toBe('APPROVED');
    await setStatus(server, vcn.vcnId, 'CANCELLED');
    expect((await purchase(server, vcn.vcnId, 1)).decline_reason).toBe('CARD_CANCELLED');
    await expect(setStatus(server, vcn.vcnId, 'ACTIVE')).rejects.toThrow(/CANCELLED/);
  });

  it('when the day is before startDate or after endDate (São Paulo days), then purchases are declined', async () => {
    const vcn = await card({ startDate: '2026-11-22', endDate: '2026-11-23' });
    at('2026-11-22T02:59:00Z'); // 23:59 on the 21st in São Paulo
    expect((await purchase(server, vcn.vcnId, 1)).decline_reason).toBe('NOT_YET_VALID');
    at('2026-11-22T03:00:00Z');
    expect((await purchase(server, vcn.vcnId, 1)).status).toBe('APPROVED');
    at('2026-11-24T02:59:00Z');
    expect((await purchase(server, vcn.vcnId, 1)).status).toBe('APPROVED');
    at('2026-11-24T03:00:00Z');
    expect((await purchase(server, vcn.vcnId, 1)).decline_reason).toBe('CARD_EXPIRED');
  });
});

describe('listVcnTransactions', () => {
  it('when listed, then newest first with the seed fields; declined ones carry their reason', async () => {
    const vcn = await card();
    at('2026-11-20T15:10:00Z');
    const first = await purchase(server, vcn.vcnId, 80, 'LIVRARIA CULTURA', '5942');
    at('2026-11-20T15:20:00Z');
    const second = await purchase(server, vcn.vcnId, 30);
    const { data, response } = await list(vcn.vcnId);
    expect(response.status).toBe(200);
    expect(data).toEqual({
      transactions: [
        {
          transactionId: second.id,
          status: 'DECLINED',
          amount: { value: 30, currency: 'BRL' },
          date: '2026-11-20T15:20:00.000Z',
          merchantName: 'HOTEL PAULISTA PLAZA',
          merchantCategory: '7011',
          declineReason: 'LIMIT_EXCEEDED',
        },
        {
          transactionId: first.id,
          status: 'APPROVED',
          amount: { value: 80, currency: 'BRL' },
          date: '2026-11-20T15:10:00.000Z',
          merchantName: 'LIVRARIA CULTURA',
          merchantCategory: '5942',
          authorizationCode: first.authorization_code,
        },
      ],
    });
  });

  it('when there are 55 transactions, then the default page is 50 and the cursor yields the other 5, each once, in order', async () => {
    const vcn = await card({ limit: { value: 100000, currency: 'BRL' } });
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) {
      server.clock.advance(i % 3 === 0 ? 0 : 1000); // some share a timestamp: ties ordered by id
      ids.push((await purchase(server, vcn.vcnId, 1)).id);
    }
    const page1 = await list(vcn.vcnId);
    expect(page1.data?.transactions).toHaveLength(50);
    const page2 = await list(vcn.vcnId, { nextPageStartKey: page1.data!.nextPageStartKey });
    expect(page2.data?.nextPageStartKey).toBeUndefined();
    const seen = [...page1.data!.transactions, ...page2.data!.transactions].map((t) => t.transactionId);
    expect(seen).toEqual([...ids].reverse());
  });

  it.each([1, 100])('when limit is %i, then it is honoured', async (limit) => {
    const vcn = await card();
    await purchase(server, vcn.vcnId, 1);
    await purchase(server, vcn.vcnId, 1);
    const { data } = await list(vcn.vcnId, { limit });
    expect(data?.transactions).toHaveLength(Math.min(limit, 2));
    expect(Boolean(data?.nextPageStartKey)).toBe(limit === 1);
  });

  it.each([0, 101])('when limit is %i, then 400 bad-request-exception on query.limit', async (limit) => {
    const vcn = await card();
    expectVcnError(await list(vcn.vcnId, { limit }), 400, 'bad-request-exception', ['query.limit']);
  });

  it('when filtered by status, then only those statuses come back', async () => {
    const vcn = await card();
    await purchase(server, vcn.vcnId, 90);
    await purchase(server, vcn.vcnId, 20);
    const declined = await list(vcn.vcnId, { status: ['DECLINED'] });
    expect(declined.data?.transactions.map((t) => t.status)).toEqual(['DECLINED']);
    expect((await list(vcn.vcnId, { status: ['APPROVED', 'DECLINED'] })).data?.transactions).toHaveLength(2);
    expectVcnError(await list(vcn.vcnId, { status: ['PENDING' as 'APPROVED'] }), 400, 'bad-request-exception');
  });

  it('when filtered by dates, then days are São Paulo days, inclusive', async () => {
    const vcn = await card({ endDate: '2026-12-31' });
    at('2026-11-21T02:30:00Z'); // 23:30 on the 20th in São Paulo
    const late = await purchase(server, vcn.vcnId, 1);
    at('2026-11-21T03:30:00Z'); // 00:30 on the 21st
    const early = await purchase(server, vcn.vcnId, 1);
    at('2026-11-20T15:00:00Z');
    const only20 = await list(vcn.vcnId, { startDate: '2026-11-20', endDate: '2026-11-20' });
    expect(only20.data?.transactions.map((t) => t.transactionId)).toEqual([late.id]);
    const from21 = await list(vcn.vcnId, { startDate: '2026-11-21' });
    expect(from21.data?.transactions.map((t) => t.transactionId)).toEqual([early.id]);
  });

  it('when endDate is before startDate, then 400 invalid-vcn-request', async () => {
    const vcn = await card();
    expectVcnError(
      await list(vcn.vcnId, { startDate: '2026-11-21', endDate: '2026-11-20' }),
      400,
      'invalid-vcn-request',
    );
  });

  it('when the cursor is tampered with or reused with other filters, then 400 bad-request-exception', async () => {
    const vcn = await card();
    await purchase(server, vcn.vcnId, 1);
    await purchase(server, vcn.vcnId, 1);
    const key = (await list(vcn.vcnId, { limit: 1 })).data!.nextPageStartKey!;
    expectVcnError(await list(vcn.vcnId, { limit: 1, nextPageStartKey: `x${key}` }), 400, 'bad-request-exception', [
      'query.nextPageStartKey',
    ]);
    expectVcnError(
      await list(vcn.vcnId, { limit: 1, nextPageStartKey: key, status: ['APPROVED'] }),
      400,
      'bad-request-exception',
    );
    const other = await card();
    expectVcnError(await list(other.vcnId, { limit: 1, nextPageStartKey: key }), 400, 'bad-request-exception');
  });

  it('when the card belongs to another company, then 404 vcn-not-found', async () => {
    const vcn = await card();
    const globex = await fundedCompany(server);
    expectVcnError(await list(vcn.vcnId, {}, globex), 404, 'vcn-not-found');
  });

  it('when the public contract is published, then it does not contain this operation', () => {
    const publicBundle = readFileSync(new URL('../generated/openapi.public.json', import.meta.url), 'utf8');
    const internal = readFileSync(new URL('../generated/openapi.internal.json', import.meta.url), 'utf8');
    expect(publicBundle).not.toContain('listVcnTransactions');
    expect(publicBundle).not.toContain('/credit-cards/v1/vcns/{vcnId}/transactions');
    expect(internal).toContain('listVcnTransactions');
  });
});
