// Numbers in the query and the path: anything but a plain, bounded decimal is a 400 in the error
// body, never a coerced value and never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const get = (pathAndQuery: string) =>
  fetch(server.baseUrl + pathAndQuery, { headers: { Authorization: `Bearer ${acme.token}` } });

async function expect400(pathAndQuery: string) {
  const res = await get(pathAndQuery);
  const body = (await res.json()) as Record<string, unknown>;
  expect(res.status, `${pathAndQuery}: ${JSON.stringify(body)}`).toBe(400);
  expect(body).toMatchObject({ error: 'Bad Request', code: 400, requestId: res.headers.get('x-request-id') });
  return body;
}

describe('numeric query parameters', () => {
  it.each([
    'amountGt=1e309',
    'amountEq=1e308',
    'amountLt=9007199254740993',
    'amountEq=1000000000000.01',
    'amountGt=-1',
    'amountEq=NaN',
    'amountEq=Infinity',
    'amountEq=0x10',
    'amountEq=1e2',
    'amountEq=%201',
    'amountEq=',
    'amountEq=1.001',
    'limit=1e309',
    'limit=0x31',
    'limit=1e1',
    'limit=1.0',
    'limit=51',
    'limit=0',
    'limit=+5',
    'limit=5&limit=6',
    'accountId=2147483648',
    'accountId=99999999999999999999',
    'status=2,0x3',
    'categoryIds=1,1e1',
  ])('when listBankingTransactions gets %s, then 400 in the error body', async (query) => {
    await expect400(`/statements/v1/banking?${query}`);
  });

  it.each(['limit=0x31', 'limit=1e1', 'limit=9007199254740993'])(
    'when the other lists get %s, then 400',
    async (query) => {
      for (const path of [
        '/statements/v1/credit-card',
        '/credit-cards/v1/bills',
        '/suppliers/v1/suppliers',
        '/categories/v1/categories',
        '/users/v1/users',
        '/users/v1/roles',
      ]) {
        await expect400(`${path}?${query}`);
      }
    },
  );

  it('when the amounts and limit are plain decimals at their bounds, then 200', async () => {
    for (const query of [
      'amountEq=1000000000000',
      'amountGt=0',
      'amountLt=12.5',
      'limit=50',
      'limit=1',
      'status=2,3',
    ]) {
      expect((await get(`/statements/v1/banking?${query}`)).status, query).toBe(200);
    }
  });
});

describe('numeric path parameters', () => {
  it.each(['0x31', '1e1', '9007199254740992', '1e309', '-1', '1.5'])(
    'when a banking transaction id is %s, then 400',
    async (id) => {
      const res = await fetch(`${server.baseUrl}/statements/v1/banking/${id}`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${acme.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ observation: 'x' }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 400, error: 'Bad Request' });
    },
  );
});

describe('date filters at the ends of the calendar', () => {
  it.each([
    'startDate=0000-01-01&endDate=9999-12-31',
    'startDate=9999-12-31&endDate=9999-12-31',
    'startDate=0000-01-01&endDate=0000-01-01',
  ])(
    'when the statements get %s, then 200, or 400 past the card statement’s 62-day window (never a 500)',
    async (query) => {
      const [start, end] = query.split('&').map((part) => Date.parse(`${part.split('=')[1]}T00:00:00Z`));
      const beyondWindow = end! - start! > 62 * 86_400_000;
      for (const path of ['/statements/v1/banking', '/statements/v1/credit-card']) {
        const res = await get(`${path}?${query}`);
        const expected = beyondWindow && path.endsWith('credit-card') ? 400 : 200;
        expect(res.status, `${path}?${query}`).toBe(expected);
      }
    },
  );
});
