import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createRole, createRoles, expectFieldError } from './support/factories/users.js';

let server: TestServer;
let acme: TestCompany;
let names: string[];

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  await createRoles(server.db, acme.companyId);
  for (const name of ['Auditor', 'Buyer', 'Controller', 'Travel desk', 'Treasury']) {
    await createRole(server.db, acme.companyId, { profile: 'EMPLOYEE', name });
  }
  names = [
    'Account owner',
    'Administrator',
    'Auditor',
    'Buyer',
    'Controller',
    'Employee',
    'Finance manager',
    'Travel desk',
    'Treasury',
  ];
});
afterAll(async () => server.close());

const list = (query: { limit?: number; nextPageStartKey?: string } = {}, api = acme.api) =>
  api.GET('/users/v1/roles', { params: { query } });

describe('listRoles', () => {
  it('when called without parameters, then every role of the company with its id and profile, ordered by name, and no cursor', async () => {
    const { data, response } = await list();
    expect(response.status).toBe(200);
    expect(data?.items.map((r) => r.name)).toEqual(names);
    expect(data?.items.find((r) => r.name === 'Account owner')).toEqual({
      id: expect.any(String),
      name: 'Account owner',
      profile: 'MAIN',
    });
    expect(data?.items.find((r) => r.name === 'Administrator')?.profile).toBe('RESPONSIBLE');
    expect(data).not.toHaveProperty('nextPageStartKey');
  });

  it('when paging with limit 2, then each role appears exactly once, in order', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const { data } = await list({ limit: 2, ...(cursor ? { nextPageStartKey: cursor } : {}) });
      expect(data!.items.length).toBeLessThanOrEqual(2);
      seen.push(...data!.items.map((r) => r.name));
      cursor = data?.nextPageStartKey;
    } while (cursor);
    expect(seen).toEqual(names);
  });

  it.each([1, 100])('when limit is %i, then 200', async (limit) => {
    const { data, response } = await list({ limit });
    expect(response.status).toBe(200);
    expect(data?.items).toHaveLength(Math.min(limit, names.length));
  });

  it.each([0, 101])('when limit is %i, then 400 naming limit', async (limit) => {
    expectFieldError(await list({ limit }), 400, 'limit');
  });

  it('when the cursor was altered, then 400 naming nextPageStartKey', async () => {
    const { data } = await list({ limit: 2 });
    expectFieldError(
      await list({ limit: 2, nextPageStartKey: `${data!.nextPageStartKey!}x` }),
      400,
      'nextPageStartKey',
    );
  });

  it('when another company lists, then it sees only its own roles', async () => {
    const globex = await server.newCompany();
    expect((await list({}, globex.api)).data?.items).toEqual([]);
    await createRoles(server.db, globex.companyId);
    const { data } = await list({}, globex.api);
    expect(data?.items).toHaveLength(4);
    const ours = new Set((await list()).data!.items.map((r) => r.id));
    expect(data!.items.some((r) => ours.has(r.id))).toBe(false);
  });

  it("when another company sends this company's cursor, then 400", async () => {
    const globex = await server.newCompany();
    const { data } = await list({ limit: 2 });
    expectFieldError(
      await list({ limit: 2, nextPageStartKey: data!.nextPageStartKey! }, globex.api),
      400,
      'nextPageStartKey',
    );
  });

  it('when the token lacks users:read, then 403; without a token, 401', async () => {
    const writer = await server.newCompany({ scopes: ['users:write', 'directory:read'] });
    expect((await list({}, writer.api)).response.status).toBe(403);
    expect((await server.anonymous.GET('/users/v1/roles', {})).response.status).toBe(401);
  });
});
