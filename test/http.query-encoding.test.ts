// Query values as curl and browsers send them: `:` and `@` unencoded must be accepted where the
// contract allows reserved characters (sorting, email filters), exactly as their encoded forms.
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

describe('listBankingTransactions query encoding', () => {
  it.each([
    ['sorting=brlAmount:desc', 'sorting=brlAmount%3Adesc'],
    ['responsibleEmail=ana@acme.com.br', 'responsibleEmail=ana%40acme.com.br'],
  ])('when %s is sent unencoded, then it is answered as its encoded form', async (raw, encoded) => {
    const [a, b] = await Promise.all([get(`/statements/v1/banking?${raw}`), get(`/statements/v1/banking?${encoded}`)]);
    expect(a.status).toBe(200);
    expect(await a.json()).toEqual(await b.json());
  });
});

describe('listUsers query encoding', () => {
  it('when email is sent with an unencoded @, then 200', async () => {
    const res = await get('/users/v1/users?email=ana@acme.com.br');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: [] });
  });
});

describe('bracketed array parameters', () => {
  it('when status[]=1&status[]=2 is sent, then 400 says to send the values comma-separated', async () => {
    const res = await get('/statements/v1/banking?status[]=1&status[]=2');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; details: string[] };
    expect(body.message).toContain('comma-separated');
    expect(body.message).toContain('status=1,2');
    expect(body.details).toEqual([
      'query.status: send the values comma-separated in one parameter (status=a,b), not as status[]',
    ]);
  });

  it('when the same filter is sent comma-separated, then 200', async () => {
    expect((await get('/statements/v1/banking?status=1,2')).status).toBe(200);
  });
});
