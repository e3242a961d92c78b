// One error vocabulary: every query and path parameter of every operation in the contract, sent
// with a value of the wrong type or form, is answered 400 with `param` naming it as the contract
// writes it and the reason `invalid_value`. The cases are derived from the contract index, so an
// operation added later is walked too. Then the requests the integrators tripped on, one by one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, loadBundle } from '../server/contract/index.js';
import type { Json } from '../server/contract/bundle.js';
import { createAccount, createBankingTransaction } from './support/factories/statements.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const index = contract();

/** A value the schema takes (its example, or one made for its type and format), as text. */
function valid(schema: Json): string {
  const s = index.resolve(schema);
  const example = (s.examples as unknown[] | undefined)?.[0] ?? s.example ?? (s.enum as unknown[] | undefined)?.[0];
  if (s.type === 'array') return valid(s.items as Json);
  if (example !== undefined) return Array.isArray(example) ? example.map(String).join(',') : String(example);
  if (s.format === 'uuid') return '3f1c2a4e-8b7d-4c6e-9a1b-2c3d4e5f6a7b';
  if (s.format === 'date') return '2026-11-01';
  if (s.type === 'integer' || s.type === 'number') return String(s.minimum ?? 1);
  if (s.type === 'boolean') return 'true';
  return 'x';
}

/** A value of the wrong type or form for the schema, or undefined when any text is a value. */
function wrong(schema: Json): string | undefined {
  const s = index.resolve(schema);
  if (s.type === 'array') return wrong(s.items as Json);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'integer' || type === 'number') return 'abc';
  if (type === 'boolean') return 'maybe';
  if (s.enum) return 'zzz';
  if (s.format === 'date' || s.format === 'date-time' || s.format === 'uuid') return 'not-a-value';
  // A value the pattern refuses: punctuation, else a control character (for patterns that allow any text).
  if (typeof s.pattern === 'string')
    return ['!!', '\u0001'].find((value) => !new RegExp(s.pattern as string, 'u').test(value));
  return undefined;
}

interface Case {
  title: string;
  method: string;
  url: string;
  param: string;
  /** The media type its body is sent as, when it takes one. */
  mediaType: string | undefined;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const op of index.operations) {
    const params = Object.entries(op.paramSchemas).filter(([key]) => /^(query|path)\./.test(key));
    const required = requiredQuery(op.method, op.path);
    for (const [key, schema] of params) {
      const bad = wrong(schema);
      if (bad === undefined) continue;
      const [place, name] = key.split('.') as [string, string];
      const path = op.path.replace(/\{([^}]+)\}/g, (_m, p: string) =>
        encodeURIComponent(p === name && place === 'path' ? bad : valid(op.paramSchemas[`path.${p}`]!)),
      );
      const query = new URLSearchParams();
      for (const other of required) if (other !== name) query.set(other, valid(op.paramSchemas[`query.${other}`]!));
      if (place === 'query') query.set(name, bad);
      const qs = query.toString();
      out.push({
        title: `${op.operationId} ${place} ${name}=${bad}`,
        method: op.method,
        url: `${path}${qs ? `?${qs}` : ''}`,
        param: name,
        mediaType: op.mediaTypes[0],
      });
    }
  }
  return out;
}

/** The required query parameters of an operation, as the contract writes them. */
const bundle = index.validatorSpec() as { paths: Record<string, Record<string, Json>> };
function requiredQuery(method: string, path: string): string[] {
  const item = bundle.paths[path]!;
  const op = item[method.toLowerCase()]!;
  const params = [...((item.parameters ?? []) as Json[]), ...((op.parameters ?? []) as Json[])].map((p) =>
    index.resolve(p),
  );
  return params.filter((p) => p.in === 'query' && p.required === true).map((p) => String(p.name));
}

describe('every parameter of every operation', () => {
  const all = cases();

  it('when the contract is walked, then there are parameters to check in most operations', () => {
    expect(all.length).toBeGreaterThan(40);
  });

  it.each(all)(
    'when $title is sent, then 400 invalid_value (403 forbidden for a signed link) names $param',
    async ({ method, url, param, mediaType }) => {
      const res = await fetch(server.baseUrl + url, {
        method,
        headers: { Authorization: `Bearer ${acme.token}`, ...(mediaType ? { 'Content-Type': mediaType } : {}) },
        ...(mediaType ? { body: '{}' } : {}),
      });
      const body = (await res.json()) as { reason?: string; param?: string; message?: string };
      // A signed link's token is checked by its signature (a 403 `forbidden`, docs/errors.md) before its form.
      const expected =
        res.status === 403 ? { status: 403, reason: 'forbidden' } : { status: 400, reason: 'invalid_value' };
      expect({ status: res.status, reason: body.reason, param: body.param }).toEqual({ ...expected, param });
      expect(body.message).not.toMatch(/pattern|\^|\$\/|\\[dSsw]/);
    },
  );
});

describe('the requests integrators tripped on', () => {
  async function send(path: string, init: RequestInit = {}, company = acme) {
    const res = await fetch(server.baseUrl + path, {
      ...init,
      headers: { Authorization: `Bearer ${company.token}`, 'Content-Type': 'application/json', ...init.headers },
    });
    return { status: res.status, body: (await res.json()) as { reason?: string; param?: string; message?: string } };
  }

  it.each([
    ['/statements/v1/banking?limit=abc', 'limit', 'invalid_value', 'limit must be an integer (got abc)'],
    ['/statements/v1/banking?status=PROCESSED', 'status', 'invalid_value', 'status must be an integer (got PROCESSED)'],
    [
      '/statements/v1/banking?startDate=2026-11-01',
      'endDate',
      'missing_parameter',
      'endDate is required with startDate: send both or neither',
    ],
    [
      '/statements/v1/banking?startDate=01/11/2026&endDate=2026-11-30',
      'startDate',
      'invalid_value',
      'startDate must be a date (YYYY-MM-DD) (got 01/11/2026)',
    ],
    [
      '/statements/v1/banking?nextPageStartKey=abcdef',
      'nextPageStartKey',
      'invalid_value',
      'nextPageStartKey is invalid, or was issued for other filters or sorting',
    ],
  ])('when GET %s, then 400 names %s with %s', async (path, param, reason, message) => {
    expect(await send(path)).toEqual({ status: 400, body: expect.objectContaining({ param, reason, message }) });
  });

  it('when PATCH banking/abc, then 400 invalid_value names transactionId', async () => {
    const { status, body } = await send('/statements/v1/banking/abc', { method: 'PATCH', body: '{"notes":"n"}' });
    expect({ status, ...body }).toMatchObject({ status: 400, reason: 'invalid_value', param: 'transactionId' });
  });

  it("when a PATCH names another company's cost center, then 400 unknown_reference names costCenterId", async () => {
    const globex = await server.newCompany();
    const foreign = await send('/cost-centers/v1/cost-centers', { method: 'POST', body: '{"name":"Ops"}' }, globex);
    const account = await createAccount(server.db, acme.companyId);
    const id = await createBankingTransaction(server.db, acme.companyId, account, { status: 2 });
    const body = JSON.stringify({ costCenterId: (foreign.body as unknown as { id: string }).id });
    const { status, body: error } = await send(`/statements/v1/banking/${id}`, { method: 'PATCH', body });
    expect({ status, ...error }).toMatchObject({ status: 400, reason: 'unknown_reference', param: 'costCenterId' });
  });

  it('when a cost center name is taken, then 409 already_exists names name', async () => {
    const company = await server.newCompany();
    await send('/cost-centers/v1/cost-centers', { method: 'POST', body: '{"name":"Ops"}' }, company);
    const again = await send('/cost-centers/v1/cost-centers', { method: 'POST', body: '{"name":"ops"}' }, company);
    expect({ status: again.status, ...again.body }).toMatchObject({
      status: 409,
      reason: 'already_exists',
      param: 'name',
    });
  });

  it('when a name is blank or a currency is not three letters, then the message says so in words', async () => {
    const blank = await send('/cost-centers/v1/cost-centers', { method: 'POST', body: '{"name":" "}' });
    expect(blank.body).toMatchObject({
      param: 'name',
      reason: 'invalid_value',
      message: 'name must not be blank (got " ")',
    });
  });

  it('when a boolean arrives as the string "true", then the message quotes it as sent', async () => {
    const account = await createAccount(server.db, acme.companyId);
    const id = await createBankingTransaction(server.db, acme.companyId, account, { status: 2 });
    const { body } = await send(`/statements/v1/banking/${id}`, { method: 'PATCH', body: '{"isConciled":"true"}' });
    expect(body).toMatchObject({ param: 'isConciled', reason: 'invalid_value' });
    expect(body.message).toContain('(got "true")');
    expect(body.message?.split(';')).toHaveLength(1);
  });

  it('when the token endpoint refuses, then its RFC 6749 body carries the requestId of the X-Request-Id header', async () => {
    const res = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password',
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      error: 'unsupported_grant_type',
      error_description: expect.any(String),
      requestId: res.headers.get('X-Request-Id'),
    });
  });
});

describe('problem details', () => {
  it('when Accept prefers application/problem+json, then the error is RFC 9457 with the body’s members as extensions', async () => {
    const res = await fetch(`${server.baseUrl}/statements/v1/banking?limit=abc`, {
      headers: { Authorization: `Bearer ${acme.token}`, Accept: 'application/problem+json, application/json;q=0.5' },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({
      type: `${server.baseUrl}/docs#/section/error-reasons/invalid_value`,
      title: 'Bad Request',
      status: 400,
      detail: 'limit must be an integer (got abc)',
      instance: '/statements/v1/banking',
      reason: 'invalid_value',
      param: 'limit',
      code: 400,
      requestId: res.headers.get('X-Request-Id'),
    });
  });

  it('when Accept is application/json or absent, then the contract’s body as before', async () => {
    for (const accept of ['application/json', '*/*']) {
      const res = await fetch(`${server.baseUrl}/statements/v1/banking?limit=abc`, {
        headers: { Authorization: `Bearer ${acme.token}`, Accept: accept },
      });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.type).toBeUndefined();
      expect(body).toMatchObject({ reason: 'invalid_value', param: 'limit' });
    }
  });

  it('when a virtual-card error is asked as problem+json, then it keeps its kebab code as an extension', async () => {
    const res = await fetch(`${server.baseUrl}/credit-cards/v1/vcns/!!`, {
      headers: { Authorization: `Bearer ${acme.token}`, Accept: 'application/problem+json' },
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ status: 400, code: 'bad-request-exception', param: 'vcnId' });
  });

  it('when the contract is read, then every error response but the OAuth endpoints’ own (RFC 6749, RFC 7591 bodies) declares application/problem+json beside its JSON body', () => {
    const bundle = loadBundle('internal') as {
      paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
    };
    const resolve = (node: unknown) => {
      const ref = (node as { $ref?: string }).$ref;
      if (!ref) return node as { content?: Record<string, { schema?: { $ref?: string } }> };
      return ref
        .split('/')
        .slice(1)
        .reduce((at: Record<string, unknown>, key) => at[key] as Record<string, unknown>, bundle as never) as {
        content?: Record<string, { schema?: { $ref?: string } }>;
      };
    };
    const missing: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries(bundle.paths))
      for (const op of Object.values(item)) {
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          if (!/^[45]/.test(status)) continue;
          const content = resolve(response).content ?? {};
          if (/\/(OAuthError|ClientRegistrationError)$/.test(content['application/json']?.schema?.$ref ?? '')) continue;
          checked += 1;
          if (!content['application/problem+json']) missing.push(`${op.operationId} ${path} ${status}`);
        }
      }
    expect(checked).toBeGreaterThan(300);
    expect(missing.join('\n')).toBe('');
  });
});
