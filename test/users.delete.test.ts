import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createPeople, createUser, expectFieldError } from './support/factories/users.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

async function company() {
  const tenant = await server.newCompany();
  const people = await createPeople(server.db, tenant.companyId);
  const employee = await createUser(server.db, tenant.companyId, {
    role_id: people.roles.employee.id,
    email: 'beatriz.lima@acme.com.br',
  });
  return { ...tenant, ...people, employee };
}

const remove = (tenant: TestCompany, userId: string) =>
  tenant.api.DELETE('/users/v1/users/{userId}', { params: { path: { userId } } });

describe('deleteUser', () => {
  it('when the user exists, then 204, and afterwards it is 404 and no longer listed', async () => {
    const acme = await company();
    const { response } = await remove(acme, acme.employee.id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expectFieldError(
      await acme.api.GET('/users/v1/users/{userId}', { params: { path: { userId: acme.employee.id } } }),
      404,
    );
    const { data } = await acme.api.GET('/users/v1/users', { params: { query: {} } });
    expect(data?.data.map((u) => u.id)).not.toContain(acme.employee.id);
  });

  it('when the user is deleted twice, then the second answer is 404', async () => {
    const acme = await company();
    await remove(acme, acme.employee.id);
    expectFieldError(await remove(acme, acme.employee.id), 404);
  });

  it('when the user is deleted, then its row stays so transactions keep referencing it', async () => {
    const acme = await company();
    await remove(acme, acme.employee.id);
    const row = await server.db
      .selectFrom('users')
      .select(['id', 'deleted_at'])
      .where('id', '=', acme.employee.id)
      .executeTakeFirst();
    expect(row?.deleted_at).toBe(server.clock.now().toISOString());
  });

  it('when the user is inactive, then it can be deleted', async () => {
    const acme = await company();
    const idle = await createUser(server.db, acme.companyId, { role_id: acme.roles.employee.id, active: 0 });
    expect((await remove(acme, idle.id)).response.status).toBe(204);
  });

  it('when the user holds the MAIN profile, then 409 naming userId and it stays', async () => {
    const acme = await company();
    expectFieldError(await remove(acme, acme.owner.id), 409, 'userId');
    expect(
      (await acme.api.GET('/users/v1/users/{userId}', { params: { path: { userId: acme.owner.id } } })).response.status,
    ).toBe(200);
  });

  it('when the user is the last active administrator, then 409 naming userId and it stays', async () => {
    const acme = await company();
    await createUser(server.db, acme.companyId, { role_id: acme.roles.responsible.id, active: 0 });
    expectFieldError(await remove(acme, acme.admin.id), 409, 'userId');
    expect(
      (await acme.api.GET('/users/v1/users/{userId}', { params: { path: { userId: acme.admin.id } } })).response.status,
    ).toBe(200);
  });

  it('when another active administrator exists, then an administrator can be deleted, but not the last one', async () => {
    const acme = await company();
    const second = await createUser(server.db, acme.companyId, { role_id: acme.roles.responsible.id });
    expect((await remove(acme, acme.admin.id)).response.status).toBe(204);
    expectFieldError(await remove(acme, second.id), 409, 'userId');
  });

  it('when two requests delete the last two administrators at once, then one is 204, one is 409', async () => {
    const acme = await company();
    const second = await createUser(server.db, acme.companyId, { role_id: acme.roles.responsible.id });
    const results = await Promise.all([remove(acme, acme.admin.id), remove(acme, second.id)]);
    expect(results.map((r) => r.response.status).sort()).toEqual([204, 409]);
  });

  it('when the user belongs to another company, then 404 and it stays', async () => {
    const acme = await company();
    const globex = await company();
    expectFieldError(await remove(globex, acme.employee.id), 404);
    expect(
      (await acme.api.GET('/users/v1/users/{userId}', { params: { path: { userId: acme.employee.id } } })).response
        .status,
    ).toBe(200);
  });

  it('when no user has the id, then 404; when the id is not a UUID v4, then 400', async () => {
    const acme = await company();
    expectFieldError(await remove(acme, randomUUID()), 404);
    expectFieldError(await remove(acme, 'not-a-uuid'), 400, 'userId');
  });

  it('when the token has users:read only, then 403', async () => {
    const acme = await company();
    const reader = await server.newCompany({ scopes: ['users:read'] });
    expect((await remove(reader, acme.employee.id)).response.status).toBe(403);
  });
});
