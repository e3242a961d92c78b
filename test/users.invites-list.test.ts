import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createPeople } from './support/factories/users.js';
import { paginators } from '../client/paginate.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

async function company() {
  const tenant = await server.newCompany();
  return { ...tenant, ...(await createPeople(server.db, tenant.companyId)) };
}

const invite = async (tenant: TestCompany, roleId: string, email: string) => {
  const { response } = await tenant.api.POST('/users/v1/invites', { body: { roleId, email } });
  expect(response.status).toBe(201);
};
const DAY = 24 * 60 * 60 * 1000;

describe('listInvites', () => {
  it('when an invite was created, then the list shows it with its role, PENDING and expiresAt 7 days on', async () => {
    const acme = await company();
    const globex = await company();
    await invite(globex, globex.roles.employee.id, 'outra@globex.com.br');
    await invite(acme, acme.roles.manager.id, 'Joao.Pereira@acme.com.br');
    const { data, response } = await acme.api.GET('/users/v1/invites');
    expect(response.status).toBe(200);
    expect(data).toEqual({
      data: [
        {
          id: expect.any(String),
          email: 'Joao.Pereira@acme.com.br',
          role: { id: acme.roles.manager.id, name: acme.roles.manager.name },
          status: 'PENDING',
          createdAt: server.clock.now().toISOString(),
          expiresAt: new Date(server.clock.now().getTime() + 7 * DAY).toISOString(),
        },
      ],
      limit: 10,
    });
  });

  it('when the clock passes an invite expiry, then it is EXPIRED and the status and role filters keep the matching ones', async () => {
    const acme = await company();
    await invite(acme, acme.roles.employee.id, 'antiga@acme.com.br');
    const to = new Date(server.clock.now().getTime() + 8 * DAY).toISOString();
    expect((await acme.api.POST('/sandbox/v1/clock/advance', { body: { to } })).response.status).toBe(200);
    await invite(acme, acme.roles.manager.id, 'nova@acme.com.br');
    server.clock.advance(1_000);
    await invite(acme, acme.roles.employee.id, 'outra@acme.com.br');
    const emails = async (query: Record<string, string>) =>
      (await acme.api.GET('/users/v1/invites', { params: { query } })).data?.data.map((i) => `${i.email} ${i.status}`);
    expect(await emails({})).toEqual([
      'outra@acme.com.br PENDING',
      'nova@acme.com.br PENDING',
      'antiga@acme.com.br EXPIRED',
    ]);
    expect(await emails({ status: 'EXPIRED' })).toEqual(['antiga@acme.com.br EXPIRED']);
    expect(await emails({ status: 'PENDING', roleId: acme.roles.employee.id })).toEqual(['outra@acme.com.br PENDING']);
    expect(await emails({ status: 'EXCLUDED' })).toEqual([]);
  });

  it('when the status is not one of the list or limit is out of range, then 400 naming the parameter', async () => {
    const acme = await company();
    for (const [query, param] of [
      [{ status: 'CANCELLED' }, 'status'],
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ roleId: 'not-a-uuid' }, 'roleId'],
    ] as const) {
      const res = await fetch(`${server.baseUrl}/users/v1/invites?${new URLSearchParams(query)}`, {
        headers: { Authorization: `Bearer ${acme.token}` },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).param).toBe(param);
    }
  });

  it('when pages of 2 are followed, then every invite appears once and a cursor with other filters is refused', async () => {
    const acme = await company();
    for (let i = 0; i < 5; i++) {
      await invite(acme, acme.roles.employee.id, `pessoa${i}@acme.com.br`);
      server.clock.advance(1_000);
    }
    const seen: string[] = [];
    for await (const item of paginators(acme.api).invites({ limit: 2 })) seen.push(item.email);
    expect(seen).toEqual([4, 3, 2, 1, 0].map((i) => `pessoa${i}@acme.com.br`));
    const first = await acme.api.GET('/users/v1/invites', { params: { query: { limit: 2 } } });
    const other = await acme.api.GET('/users/v1/invites', {
      params: { query: { limit: 2, status: 'PENDING', nextPageStartKey: first.data?.nextPageStartKey } },
    });
    expect(other.response.status).toBe(400);
  });
});
