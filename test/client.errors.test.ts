// unwrap() and FinanceApiError: every field of the error body, typed, with helpers to branch on;
// the openapi-fetch {data, error} style stays available.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFinanceClient,
  type FinanceApiError,
  FinanceNetworkError,
  hasVcnCode,
  isBadRequest,
  isConflict,
  isFinanceApiError,
  isFinanceNetworkError,
  isForbidden,
  isNotFound,
  isRateLimited,
  isUnauthorized,
  unwrap,
  type FinanceClient,
} from '../client/index.js';
import { startTestServer, type TestServer } from './support/server.js';
import { createPeople } from './support/factories/users.js';
import { customRequest, fundedCompany } from './support/factories/vcn.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';

let server: TestServer;
let client: FinanceClient;
let companyId: string;

beforeAll(async () => {
  server = await startTestServer();
  const acme = await fundedCompany(server);
  companyId = acme.companyId;
  client = createFinanceClient({ baseUrl: server.baseUrl, clientId: acme.clientId, clientSecret: acme.clientSecret });
});
afterAll(async () => server.close());

const UUID = /^[0-9a-f-]{36}$/;
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('resolved'),
    (e: unknown) => e,
  );
const COST_CENTERS = '/cost-centers/v1/cost-centers';

describe('FinanceApiError', () => {
  it('when a body is invalid, then 400 with the common body: error, message, numeric code, requestId, string details', async () => {
    const error = await rejection(unwrap(client.POST(COST_CENTERS, { body: { name: '' } })));
    expect(isFinanceApiError(error) && isBadRequest(error)).toBe(true);
    const e = error as FinanceApiError;
    expect(e).toMatchObject({ name: 'FinanceApiError', status: 400, error: 'Bad Request', code: 400, errors: [] });
    expect(e.message).toEqual(expect.any(String));
    expect(e.requestId).toMatch(UUID);
    expect(e.details.length).toBeGreaterThan(0);
    for (const detail of e.details) expect(typeof detail).toBe('string');
  });

  it('when the resource is absent, then isNotFound', async () => {
    const error = await rejection(
      unwrap(client.GET(`${COST_CENTERS}/{id}`, { params: { path: { id: '5c3e0b7e-0d6f-4f43-9a38-3d1f1e2b7a10' } } })),
    );
    expect(isNotFound(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, error: 'Not Found', code: 404 });
    expect(isConflict(error)).toBe(false);
  });

  it('when a name is taken, then isConflict; the {data, error} style still gives the typed body', async () => {
    await unwrap(client.POST(COST_CENTERS, { body: { name: 'Finance' } }));
    const { data, error, response } = await client.POST(COST_CENTERS, { body: { name: ' finance ' } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ error: 'Conflict', code: 409, requestId: response.headers.get('X-Request-Id') });
    const thrown = await rejection(unwrap(client.POST(COST_CENTERS, { body: { name: 'FINANCE' } })));
    expect(isConflict(thrown)).toBe(true);
    expect((thrown as FinanceApiError).details).toEqual([expect.any(String)]);
  });

  it('when a PENDING transaction is reconciled, then isConflict; a PROCESSED one answers 204 and unwrap resolves', async () => {
    const account = await createAccount(server.db, companyId);
    const [pending, processed] = await createBankingTransactions(server.db, companyId, account, [
      { status: 3 },
      { status: 2 },
    ]);
    const reconcile = (transactionId: number) =>
      unwrap(
        client.PATCH('/statements/v1/banking/{transactionId}', {
          params: { path: { transactionId } },
          body: { isConciled: true },
        }),
      );
    expect(isConflict(await rejection(reconcile(pending!)))).toBe(true);
    await expect(reconcile(processed!)).resolves.toBeUndefined();
    await expect(reconcile(processed!)).resolves.toBeUndefined();
  });

  it('when a users rule is broken, then 409 with {field, message} details', async () => {
    const { owner } = await createPeople(server.db, companyId);
    const error = await rejection(
      unwrap(
        client.PATCH('/users/v1/users/{userId}', {
          params: { path: { userId: owner.id } },
          body: { name: 'Renamed owner' },
        }),
      ),
    );
    expect(isConflict(error)).toBe(true);
    expect((error as FinanceApiError).details).toEqual([{ field: 'userId', message: expect.any(String) }]);
  });

  it('when a VCN body breaks the schema, then the string code bad-request-exception and errors[] with prefixed fields', async () => {
    const { requestor: _omitted, ...body } = customRequest();
    const error = await rejection(
      unwrap(client.POST('/credit-cards/v1/vcns', { body: body as ReturnType<typeof customRequest> })),
    );
    expect(hasVcnCode(error, 'bad-request-exception')).toBe(true);
    const e = error as FinanceApiError;
    expect(e).toMatchObject({ status: 400, error: 'Bad Request', code: 'bad-request-exception', details: [] });
    expect(e.errors.map((p) => p.field)).toContain('body.requestor');
    expect(e.requestId).toMatch(UUID);
  });

  it('when a live card holds the booking key, then hasVcnCode(e, "vcn-already-exists") and the message names the card', async () => {
    const body = customRequest();
    const card = await unwrap(client.POST('/credit-cards/v1/vcns', { body }));
    const error = await rejection(unwrap(client.POST('/credit-cards/v1/vcns', { body })));
    expect(hasVcnCode(error, 'vcn-already-exists')).toBe(true);
    expect(isConflict(error)).toBe(true);
    expect((error as FinanceApiError).message).toContain(card.vcnId);
  });

  it('when a card is unknown, then 404 vcn-not-found', async () => {
    const error = await rejection(
      unwrap(
        client.GET('/credit-cards/v1/vcns/{vcnId}/reveal', {
          params: { path: { vcnId: '01JD3R7M5Q2W8E4T6Y1V9K0PZX' } },
        }),
      ),
    );
    expect(isNotFound(error) && hasVcnCode(error, 'vcn-not-found')).toBe(true);
  });

  it('when the body is not JSON (a proxy page), then the error still carries status, reason and the request id header', async () => {
    const html = (request: Request) =>
      Promise.resolve(
        new Response('<html>Bad gateway</html>', {
          status: 502,
          statusText: 'Bad Gateway',
          headers: { 'X-Request-Id': request.headers.get('X-Request-Id') ?? '' },
        }),
      );
    const acme = await server.newCompany();
    const proxied = createFinanceClient({
      baseUrl: server.baseUrl,
      clientId: acme.clientId,
      clientSecret: acme.clientSecret,
      fetch: (request) =>
        new URL(request.url).pathname === '/oauth/token' ? globalThis.fetch(request) : html(request),
    });
    const error = await rejection(unwrap(proxied.GET(COST_CENTERS)));
    expect(error).toMatchObject({
      status: 502,
      error: 'Bad Gateway',
      code: 502,
      message: '<html>Bad gateway</html>',
      requestId: expect.stringMatching(UUID),
    });
  });
});

describe('status helpers and network failures', () => {
  it('when the token is refused, the scope is missing or the rate limit is hit, then isUnauthorized, isForbidden and isRateLimited say so', async () => {
    const wrong = createFinanceClient({
      baseUrl: server.baseUrl,
      clientId: 'cli_nobody',
      clientSecret: 'sk_wrong',
      retry: { maxRetries: 0 },
    });
    const refused = await rejection(unwrap(wrong.GET(COST_CENTERS)));
    expect(isUnauthorized(refused)).toBe(true);
    // The token endpoint's RFC 6749 body maps to a reason, and carries the request id.
    expect(refused).toMatchObject({
      reason: 'unauthenticated',
      error: 'invalid_client',
      requestId: expect.any(String),
    });

    const reader = await server.newCompany({ scopes: ['directory:read'] });
    const readOnly = createFinanceClient({
      baseUrl: server.baseUrl,
      clientId: reader.clientId,
      clientSecret: reader.clientSecret,
    });
    const forbidden = await rejection(unwrap(readOnly.POST(COST_CENTERS, { body: { name: 'Not allowed' } })));
    expect(isForbidden(forbidden) && !isUnauthorized(forbidden)).toBe(true);

    const limited = createFinanceClient({
      baseUrl: server.baseUrl,
      clientId: reader.clientId,
      clientSecret: reader.clientSecret,
      retry: { maxRetries: 0 },
      fetch: async (request) =>
        new URL(request.url).pathname === '/oauth/token'
          ? fetch(request)
          : new Response(
              JSON.stringify({
                error: 'Too Many Requests',
                message: 'slow down',
                code: 429,
                requestId: 'r',
                details: [],
              }),
              { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '600' } },
            ),
    });
    expect(isRateLimited(await rejection(unwrap(limited.GET(COST_CENTERS))))).toBe(true);
  });

  it('when the server cannot be reached, then a FinanceNetworkError names the call and keeps the cause', async () => {
    const offline = createFinanceClient({
      baseUrl: 'http://127.0.0.1:9',
      clientId: 'a',
      clientSecret: 'b',
      retry: { maxRetries: 0 },
    });
    const failure = await rejection(unwrap(offline.GET(COST_CENTERS)));
    expect(isFinanceNetworkError(failure)).toBe(true);
    expect(failure).toBeInstanceOf(FinanceNetworkError);
    expect((failure as FinanceNetworkError).message).toMatch(
      /^POST http:\/\/127\.0\.0\.1:9\/oauth\/token failed on the network/,
    );
    expect((failure as FinanceNetworkError).cause).toBeInstanceOf(Error);
  });
});
