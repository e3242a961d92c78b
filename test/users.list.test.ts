import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createPeople, createUser, expectFieldError, type Roles } from './support/factories/users.js';

let server: TestServer;
let acme: TestCompany;
let roles: Roles;
const emails: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  const people = await createPeople(server.db, acme.companyId);
  roles = people.roles;
  emails.push(people.owner.email, people.admin.email);
  for (let i = 0; i < 58; i += 1) {
    const email = `colaborador${String(i).padStart(2, '0')}@acme.com.br`;
    await createUser(server.db, acme.companyId, {
      role_id: roles.employee.id,
      email,
      name: `Colaborador ${i}`,
      active: i === 3 ? 0 : 1,
      phone: i === 5 ? '+5511987654321' : null,
    });
    emails.push(email);
  }
  emails.sort();
});
afterAll(async () => server.close());

const list = (query: { email?: string; limit?: number; nextPageStartKey?: string } = {}, api = acme.api) =>
  api.GET('/users/v1/users', { params: { query } });

describe('listUsers', () => {
  it('when no limit is sent, then the page holds 50 users ordered by email, echoes limit 50 and has a next page', async () => {
    const { data, response } = await list();
    expect(response.status).toBe(200);
    expect(data?.limit).toBe(50);
    expect(data?.data.map((u) => u.email)).toEqual(emails.slice(0, 50));
    expect(data?.nextPageStartKey).toEqual(expect.any(String));
  });

  it('when limit is 1, then one user and a cursor', async () => {
    const { data } = await list({ limit: 1 });
    expect(data?.data).toHaveLength(1);
    expect(data?.limit).toBe(1);
    expect(data?.nextPageStartKey).toBeDefined();
  });

  it('when limit is 100 and the company has 60 users, then all of them and no cursor', async () => {
    const { data } = await list({ limit: 100 });
    expect(data?.data).toHaveLength(60);
    expect(data?.limit).toBe(100);
    expect(data).not.toHaveProperty('nextPageStartKey');
  });

  it('when limit is exactly the number of users, then no cursor', async () => {
    const { data } = await list({ limit: 60 });
    expect(data?.data).toHaveLength(60);
    expect(data).not.toHaveProperty('nextPageStartKey');
  });

  it.each([0, 101, -1])('when limit is %i, then 400 naming limit', async (limit) => {
    expectFieldError(await list({ limit }), 400, 'limit');
  });

  it('when limit is not an integer, then 400 naming limit', async () => {
    const res = await fetch(`${server.baseUrl}/users/v1/users?limit=2.5`, {
      headers: { Authorization: `Bearer ${acme.token}` },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).details).toEqual([expect.objectContaining({ field: 'limit' })]);
  });

  it('when paging with limit 7, then every user appears exactly once, in order, and the last page has no cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { data } = await list({ limit: 7, ...(cursor ? { nextPageStartKey: cursor } : {}) });
      seen.push(...(data?.data ?? []).map((u) => u.email));
      cursor = data?.nextPageStartKey;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(9);
    expect(seen).toEqual(emails);
  });

  it('when users are renamed between pages, then paging still yields each user once', async () => {
    const first = await list({ limit: 30 });
    const onSecondPage = (await list({ email: emails[45] })).data!.data[0]!;
    const renamed = await acme.api.PATCH('/users/v1/users/{userId}', {
      params: { path: { userId: onSecondPage.id } },
      body: { name: 'Aaron Abreu' },
    });
    expect(renamed.response.status).toBe(200);
    const second = await list({ limit: 30, nextPageStartKey: first.data!.nextPageStartKey });
    expect([...first.data!.data, ...second.data!.data].map((u) => u.email)).toEqual(emails);
  });

  it('when the email filter matches in another case, then exactly that user is listed', async () => {
    const { data } = await list({ email: 'CARLOS.Mendes@ACME.com.br' });
    expect(data?.data).toEqual([
      {
        id: expect.any(String),
        email: 'carlos.mendes@acme.com.br',
        name: 'Carlos Mendes',
        role: { id: roles.responsible.id, name: 'Administrator' },
        active: true,
      },
    ]);
    expect(data).not.toHaveProperty('nextPageStartKey');
  });

  it('when the email filter is only part of an address, then nothing is listed', async () => {
    const { data } = await list({ email: 'carlos.mendes@acme.com' });
    expect(data?.data).toEqual([]);
  });

  it('when the email filter is not an address, then 400 naming email', async () => {
    expectFieldError(await list({ email: 'carlos.mendes' }), 400, 'email');
  });

  it('when a user is inactive, then it is listed with active false', async () => {
    const { data } = await list({ email: 'colaborador03@acme.com.br' });
    expect(data?.data[0]?.active).toBe(false);
  });

  it('when a user has a phone, then it is listed; without one, the field is absent', async () => {
    const { data } = await list({ email: 'colaborador05@acme.com.br' });
    expect(data?.data[0]?.phone).toBe('+5511987654321');
    const other = await list({ email: 'carlos.mendes@acme.com.br' });
    expect(other.data?.data[0]).not.toHaveProperty('phone');
  });
});

describe('listUsers cursors', () => {
  it('when the cursor was altered, then 400 naming nextPageStartKey', async () => {
    const { data } = await list({ limit: 2 });
    const token = data!.nextPageStartKey!;
    const tampered = `${Buffer.from(JSON.stringify({ k: ['a'] })).toString('base64url')}.${token.split('.')[1]}`;
    expectFieldError(await list({ limit: 2, nextPageStartKey: tampered }), 400, 'nextPageStartKey');
    expectFieldError(await list({ limit: 2, nextPageStartKey: 'garbage' }), 400, 'nextPageStartKey');
  });

  it('when the cursor is sent with another email filter, then 400', async () => {
    const { data } = await list({ limit: 2 });
    expectFieldError(
      await list({ email: 'carlos.mendes@acme.com.br', nextPageStartKey: data!.nextPageStartKey! }),
      400,
      'nextPageStartKey',
    );
  });

  it('when the cursor is sent with another page size, then it continues where it left off', async () => {
    const { data } = await list({ limit: 2 });
    const next = await list({ limit: 3, nextPageStartKey: data!.nextPageStartKey! });
    expect(next.data?.data.map((u) => u.email)).toEqual(emails.slice(2, 5));
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
});

describe('listUsers isolation and access', () => {
  it("when another company lists, then it sees none of this company's users, even filtering by their address", async () => {
    const globex = await server.newCompany();
    expect((await list({}, globex.api)).data?.data).toEqual([]);
    expect((await list({ email: 'carlos.mendes@acme.com.br' }, globex.api)).data?.data).toEqual([]);
  });

  it('when a user is deleted, then it is no longer listed', async () => {
    const gone = await createUser(server.db, acme.companyId, { role_id: roles.employee.id, email: 'gone@acme.com.br' });
    expect((await list({ email: 'gone@acme.com.br' })).data?.data).toHaveLength(1);
    expect(
      (await acme.api.DELETE('/users/v1/users/{userId}', { params: { path: { userId: gone.id } } })).response.status,
    ).toBe(204);
    expect((await list({ email: 'gone@acme.com.br' })).data?.data).toEqual([]);
  });

  it('when the token lacks users:read, then 403', async () => {
    const writer = await server.newCompany({ scopes: ['users:write'] });
    expect((await list({}, writer.api)).response.status).toBe(403);
  });

  it('when there is no token, then 401 with WWW-Authenticate', async () => {
    const { response } = await server.anonymous.GET('/users/v1/users', {});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});
