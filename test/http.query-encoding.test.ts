// Query values as curl, browsers and client libraries send them: `:` and `@` unencoded, `+` for a
// space (form encoding: URLSearchParams, Python's urlencode), and the `*`, `(`, `)`, `'`, `!` that
// encodeURIComponent (and so the typed client) leaves as they are — each answered exactly as its
// percent-encoded form; an empty value is told it is empty.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  await createBankingTransactions(server.db, acme.companyId, account, [
    { description: 'UBER *TRIP 4511' },
    { description: 'PIX enviado Maria (aluguel)' },
    { description: 'PIX recebido' },
  ]);
  await createCreditCardTransactions(server.db, acme.companyId, [
    { description: 'UBER *TRIP 7788' },
    { description: "MC DONALD'S!" },
  ]);
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

describe('free-text search as clients encode it', () => {
  const ids = async (res: Response) => {
    expect(res.status).toBe(200);
    return ((await res.json()) as { transactions: Array<{ id: unknown }> }).transactions.map((t) => t.id);
  };

  it.each([
    ['/statements/v1/banking', 'q=PIX+enviado', 'q=PIX%20enviado', 1],
    ['/statements/v1/banking', `q=${encodeURIComponent('UBER *TRIP')}`, 'q=UBER%20%2ATRIP', 1],
    [
      '/statements/v1/banking',
      `q=${new URLSearchParams({ q: 'maria (aluguel)' }).get('q')}`,
      'q=maria%20%28aluguel%29',
      1,
    ],
    ['/statements/v1/banking', `q=${encodeURIComponent('(aluguel)')}`, 'q=%28aluguel%29', 1],
    ['/statements/v1/credit-card', `q=${encodeURIComponent('UBER *TRIP')}`, 'q=UBER%20%2ATRIP', 1],
    ['/statements/v1/credit-card', `q=${encodeURIComponent("DONALD'S!")}`, 'q=DONALD%27S%21', 1],
  ])('when %s is searched with %s, then it finds what %s finds', async (path, sent, encoded, count) => {
    const [a, b] = await Promise.all([get(`${path}?${sent}`), get(`${path}?${encoded}`)]);
    const found = await ids(a);
    expect(found).toHaveLength(count);
    expect(found).toEqual(await ids(b));
  });

  it('when URLSearchParams encodes two words (a + between them), then both are searched', async () => {
    const query = new URLSearchParams({ q: 'uber trip' }).toString();
    expect(query).toBe('q=uber+trip');
    expect(await ids(await get(`/statements/v1/banking?${query}`))).toHaveLength(1);
  });

  it('when the typed client searches a descriptor with *, then it finds it', async () => {
    const { data, response } = await acme.api.GET('/statements/v1/banking', { params: { query: { q: 'UBER *TRIP' } } });
    expect(response.status).toBe(200);
    expect(data?.transactions.map((t) => t.description)).toEqual(['UBER *TRIP 4511']);
  });

  it('when a filter is sent empty (startDate=), then 400 says it is empty, not that it must be encoded', async () => {
    const res = await get('/statements/v1/banking?startDate=');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; param: string };
    expect(body.param).toBe('startDate');
    expect(body.message).toContain('must not be empty');
    expect(body.message).not.toContain('URL-encoded');
  });
});

describe('a NUL character, which no text can hold', () => {
  it.each([
    ['/statements/v1/banking?metadata%5Berp_id%5D=a%00b', 'metadata[erp_id]'],
    ['/statements/v1/credit-card/summary?q=caf%00e', 'q'],
    ['/statements/v1/exports/banking?format=csv&metadata%5Berp_id%5D=a%00b', 'metadata[erp_id]'],
    ['/statements/v1/exports/credit-card?format=csv&platformCategoryIds=TRAVEL%00', 'platformCategoryIds'],
  ])('when %s is sent, then 400 names the parameter before anything is read', async (path, param) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { param: string; message: string };
    expect(body).toMatchObject({ param });
    expect(body.message).toContain('NUL');
  });

  it('when a body string holds a NUL, then 400 names the field and nothing is written', async () => {
    const account = await createAccount(server.db, acme.companyId);
    const [id] = await createBankingTransactions(server.db, acme.companyId, account, [{ notes: 'before' }]);
    for (const body of ['{"notes":"a\\u0000b"}', '{"metadata":{"erp_id":"a\\u0000b"}}']) {
      const res = await fetch(`${server.baseUrl}/statements/v1/banking/${id}`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${acme.token}`, 'Content-Type': 'application/json' },
        body,
      });
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { details: string[] }).details[0]).toContain('NUL');
    }
    const { data } = await acme.api.GET('/statements/v1/banking/{transactionId}', {
      params: { path: { transactionId: id! } },
    });
    expect(data).toMatchObject({ notes: 'before', metadata: {} });
  });
});
