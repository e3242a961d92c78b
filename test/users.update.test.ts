import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createPeople, createRole, createUser, expectFieldError } from './support/factories/users.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

/** A fresh company with its roles, owner, one administrator and one employee. */
async function company() {
  const tenant = await server.newCompany();
  const people = await createPeople(server.db, tenant.companyId);
  const employee = await createUser(server.db, tenant.companyId, {
    role_id: people.roles.employee.id,
    name: 'Beatriz Lima',
    email: 'beatriz.lima@acme.com.br',
    phone: '+5511912345678',
  });
  return { ...tenant, ...people, employee };
}

const patch = (tenant: TestCompany, userId: string, body: Record<string, unknown>) =>
  tenant.api.PATCH('/users/v1/users/{userId}', {
    params: { path: { userId } },
    body: body as { name?: string; roleId?: string },
  });
const get = (tenant: TestCompany, userId: string) =>
  tenant.api.GET('/users/v1/users/{userId}', { params: { path: { userId } } });

describe('getUser', () => {
  it('when the user belongs to the company, then 200 with the user and its role', async () => {
    const acme = await company();
    const { data, response } = await get(acme, acme.employee.id);
    expect(response.status).toBe(200);
    expect(data).toEqual({
      id: acme.employee.id,
      email: 'beatriz.lima@acme.com.br',
      name: 'Beatriz Lima',
      phone: '+5511912345678',
      role: { id: acme.roles.employee.id, name: 'Employee' },
      active: true,
    });
  });

  it('when the user belongs to another company, then 404', async () => {
    const acme = await company();
    const globex = await server.newCompany();
    expectFieldError(await get(globex, acme.employee.id), 404);
  });

  it('when no user has the id, then 404', async () => {
    const acme = await company();
    expectFieldError(await get(acme, randomUUID()), 404);
  });

  it.each(['abc', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'])(
    'when the id %s is not a UUID v4, then 400 naming userId',
    async (id) => {
      const acme = await company();
      expectFieldError(await get(acme, id), 400, 'userId');
    },
  );

  it('when the token lacks users:read, then 403', async () => {
    const acme = await company();
    const writer = await server.newCompany({ scopes: ['users:write'] });
    expect((await get(writer, acme.employee.id)).response.status).toBe(403);
  });
});

describe('updateUser name', () => {
  it('when only name is sent, then it changes and the role stays', async () => {
    const acme = await company();
    const { data, response } = await patch(acme, acme.employee.id, { name: 'Beatriz Lima Rocha' });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      name: 'Beatriz Lima Rocha',
      email: 'beatriz.lima@acme.com.br',
      role: { id: acme.roles.employee.id },
    });
    expect((await get(acme, acme.employee.id)).data?.name).toBe('Beatriz Lima Rocha');
  });

  it.each([
    ['a', 'a'],
    ['x'.repeat(120), 'x'.repeat(120)],
    ['  Bia  ', 'Bia'],
  ])('when name is %j, then 200 and it is stored as %j', async (name, stored) => {
    const acme = await company();
    const { data, response } = await patch(acme, acme.employee.id, { name });
    expect(response.status).toBe(200);
    expect(data?.name).toBe(stored);
  });

  it.each(['', '   ', 'x'.repeat(121)])('when name is %j, then 400 naming name and nothing changes', async (name) => {
    const acme = await company();
    expectFieldError(await patch(acme, acme.employee.id, { name }), 400, 'name');
    expect((await get(acme, acme.employee.id)).data?.name).toBe('Beatriz Lima');
  });
});

describe('updateUser body', () => {
  it('when email is sent, then 400 naming email and the address stays', async () => {
    const acme = await company();
    expectFieldError(await patch(acme, acme.employee.id, { email: 'outra@acme.com.br' }), 400, 'email');
    expectFieldError(await patch(acme, acme.employee.id, { name: 'Bia', email: 'outra@acme.com.br' }), 400, 'email');
    expect((await get(acme, acme.employee.id)).data).toMatchObject({
      email: 'beatriz.lima@acme.com.br',
      name: 'Beatriz Lima',
    });
  });

  it('when the body is empty, then 400', async () => {
    const acme = await company();
    expectFieldError(await patch(acme, acme.employee.id, {}), 400);
  });

  it('when an unknown field is sent, then 400 naming it', async () => {
    const acme = await company();
    expectFieldError(await patch(acme, acme.employee.id, { active: false }), 400, 'active');
  });

  it('when the current values are sent, then 200 and nothing changes', async () => {
    const acme = await company();
    const { data, response } = await patch(acme, acme.employee.id, {
      name: 'Beatriz Lima',
      roleId: acme.roles.employee.id,
    });
    expect(response.status).toBe(200);
    expect(data).toEqual((await get(acme, acme.employee.id)).data);
  });
});

describe('updateUser roleId', () => {
  it('when only roleId is sent, then the role changes and the name stays', async () => {
    const acme = await company();
    const { data } = await patch(acme, acme.employee.id, { roleId: acme.roles.manager.id });
    expect(data).toMatchObject({ name: 'Beatriz Lima', role: { id: acme.roles.manager.id, name: 'Finance manager' } });
  });

  it('when roleId is a role of another company, then 400 naming roleId and nothing changes', async () => {
    const acme = await company();
    const globex = await company();
    expectFieldError(await patch(acme, acme.employee.id, { roleId: globex.roles.manager.id }), 400, 'roleId');
    expect((await get(acme, acme.employee.id)).data?.role.id).toBe(acme.roles.employee.id);
  });

  it('when roleId names no role, then 400 naming roleId', async () => {
    const acme = await company();
    expectFieldError(await patch(acme, acme.employee.id, { roleId: randomUUID() }), 400, 'roleId');
  });

  it('when roleId is not a UUID, then 400 naming roleId', async () => {
    const acme = await company();
    expectFieldError(await patch(acme, acme.employee.id, { roleId: 'manager' }), 400, 'roleId');
  });

  it('when roleId is the MAIN role, then 400 naming roleId', async () => {
    const acme = await company();
    expectFieldError(await patch(acme, acme.employee.id, { roleId: acme.roles.main.id }), 400, 'roleId');
  });
});

describe('updateUser rules', () => {
  it('when the user holds the MAIN profile, then 409 naming userId and nothing changes', async () => {
    const acme = await company();
    expectFieldError(await patch(acme, acme.owner.id, { name: 'Helena D.' }), 409, 'userId');
    expectFieldError(await patch(acme, acme.owner.id, { roleId: acme.roles.responsible.id }), 409, 'userId');
    expect((await get(acme, acme.owner.id)).data).toMatchObject({
      name: 'Helena Duarte',
      role: { id: acme.roles.main.id },
    });
  });

  it('when the user is inactive, then 409 naming each field sent and nothing changes', async () => {
    const acme = await company();
    const idle = await createUser(server.db, acme.companyId, {
      role_id: acme.roles.employee.id,
      name: 'Otávio Nunes',
      active: 0,
    });
    expectFieldError(await patch(acme, idle.id, { name: 'Otávio' }), 409, 'name');
    expectFieldError(await patch(acme, idle.id, { roleId: acme.roles.manager.id }), 409, 'roleId');
    const both = await patch(acme, idle.id, { name: 'Otávio', roleId: acme.roles.manager.id });
    expect((both.error as { details: Array<{ field: string }> }).details.map((d) => d.field)).toEqual([
      'name',
      'roleId',
    ]);
    expect((await get(acme, idle.id)).data).toMatchObject({
      name: 'Otávio Nunes',
      active: false,
      role: { id: acme.roles.employee.id },
    });
  });

  it('when the last active administrator is demoted, then 409 naming roleId and the role stays', async () => {
    const acme = await company();
    expectFieldError(await patch(acme, acme.admin.id, { roleId: acme.roles.employee.id }), 409, 'roleId');
    expect((await get(acme, acme.admin.id)).data?.role.id).toBe(acme.roles.responsible.id);
  });

  it('when the only other administrator is inactive, then demoting the active one is 409', async () => {
    const acme = await company();
    await createUser(server.db, acme.companyId, { role_id: acme.roles.responsible.id, active: 0 });
    expectFieldError(await patch(acme, acme.admin.id, { roleId: acme.roles.manager.id }), 409, 'roleId');
  });

  it('when another active administrator exists, then the demotion succeeds, and demoting the remaining one is 409', async () => {
    const acme = await company();
    await patch(acme, acme.employee.id, { roleId: acme.roles.responsible.id });
    expect((await patch(acme, acme.admin.id, { roleId: acme.roles.employee.id })).response.status).toBe(200);
    expectFieldError(await patch(acme, acme.employee.id, { roleId: acme.roles.employee.id }), 409, 'roleId');
  });

  it('when the last administrator moves to another RESPONSIBLE role, then 200: it is not a demotion', async () => {
    const acme = await company();
    const finance = await createRole(server.db, acme.companyId, {
      profile: 'RESPONSIBLE',
      name: 'Financial administrator',
    });
    const { data, response } = await patch(acme, acme.admin.id, { roleId: finance.id });
    expect(response.status).toBe(200);
    expect(data?.role).toEqual({ id: finance.id, name: 'Financial administrator' });
  });

  it('when the last administrator is renamed, then 200', async () => {
    const acme = await company();
    expect((await patch(acme, acme.admin.id, { name: 'Carlos A. Mendes' })).response.status).toBe(200);
  });

  it('when two requests demote the last two administrators at once, then one succeeds, one is 409 and one administrator remains', async () => {
    const acme = await company();
    const second = await createUser(server.db, acme.companyId, { role_id: acme.roles.responsible.id });
    const results = await Promise.all([
      patch(acme, acme.admin.id, { roleId: acme.roles.employee.id }),
      patch(acme, second.id, { roleId: acme.roles.manager.id }),
    ]);
    expect(results.map((r) => r.response.status).sort()).toEqual([200, 409]);
    const admins = (await acme.api.GET('/users/v1/users', { params: { query: {} } })).data!.data.filter(
      (u) => u.active && u.role.id === acme.roles.responsible.id,
    );
    expect(admins).toHaveLength(1);
  });
});

describe('updateUser isolation and access', () => {
  it('when the user belongs to another company, then 404 and it is unchanged', async () => {
    const acme = await company();
    const globex = await company();
    expectFieldError(await patch(globex, acme.employee.id, { name: 'Intruso' }), 404);
    expect((await get(acme, acme.employee.id)).data?.name).toBe('Beatriz Lima');
  });

  it('when the user was deleted, then 404', async () => {
    const acme = await company();
    await acme.api.DELETE('/users/v1/users/{userId}', { params: { path: { userId: acme.employee.id } } });
    expectFieldError(await patch(acme, acme.employee.id, { name: 'Fantasma' }), 404);
  });

  it('when the token has users:read only, then 403', async () => {
    const acme = await company();
    const reader = await server.newCompany({ scopes: ['users:read'] });
    expect((await patch(reader, acme.employee.id, { name: 'Bia' })).response.status).toBe(403);
  });
});
