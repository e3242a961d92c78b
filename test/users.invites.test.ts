import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createInvite, createPeople, createUser, expectFieldError } from './support/factories/users.js';
import { acceptInvite, InviteNotAcceptable } from '../server/areas/users/invites-service.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

async function company() {
  const tenant = await server.newCompany();
  return { ...tenant, ...(await createPeople(server.db, tenant.companyId)) };
}

const invite = (tenant: TestCompany, body: Record<string, unknown>) =>
  tenant.api.POST('/users/v1/invites', { body: body as { roleId: string; email: string } });

const invitesOf = (companyId: string) =>
  server.db.selectFrom('invites').selectAll().where('company_id', '=', companyId).orderBy('created_at').execute();

const DAY = 24 * 60 * 60 * 1000;

describe('createInvite', () => {
  it('when the role and address are valid, then 201 with a message, no Location, and a pending invite for 7 days', async () => {
    const acme = await company();
    const { data, response } = await invite(acme, { roleId: acme.roles.manager.id, email: 'joao.pereira@acme.com.br' });
    expect(response.status).toBe(201);
    expect(data).toEqual({ message: expect.stringContaining('joao.pereira@acme.com.br') });
    expect(response.headers.get('location')).toBeNull();
    const [stored] = await invitesOf(acme.companyId);
    expect(stored).toMatchObject({
      email: 'joao.pereira@acme.com.br',
      role_id: acme.roles.manager.id,
      status: 'PENDING',
    });
    expect(Date.parse(stored!.expires_at) - server.clock.now().getTime()).toBe(7 * DAY);
  });

  it('when the role belongs to another company, then 400 naming roleId and nothing is stored', async () => {
    const acme = await company();
    const globex = await company();
    expectFieldError(
      await invite(acme, { roleId: globex.roles.employee.id, email: 'joao@acme.com.br' }),
      400,
      'roleId',
    );
    expect(await invitesOf(acme.companyId)).toEqual([]);
  });

  it('when no role has the id, then 400 naming roleId', async () => {
    const acme = await company();
    expectFieldError(await invite(acme, { roleId: randomUUID(), email: 'joao@acme.com.br' }), 400, 'roleId');
  });

  it('when the role is the MAIN role, then 400 naming roleId', async () => {
    const acme = await company();
    expectFieldError(await invite(acme, { roleId: acme.roles.main.id, email: 'joao@acme.com.br' }), 400, 'roleId');
  });

  it.each(['abc', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'])(
    'when roleId is %s (not a UUID v4), then 400 naming roleId',
    async (roleId) => {
      const acme = await company();
      expectFieldError(await invite(acme, { roleId, email: 'joao@acme.com.br' }), 400, 'roleId');
    },
  );

  it.each(['joao', 'joao@', '@acme.com.br', 'joao @acme.com.br', ''])(
    'when email is %j, then 400 naming email',
    async (email) => {
      const acme = await company();
      expectFieldError(await invite(acme, { roleId: acme.roles.employee.id, email }), 400, 'email');
    },
  );

  it('when email is 254 characters long, then 201; at 255, then 400', async () => {
    const acme = await company();
    const address = (d: number) => `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(d)}.com.br`;
    expect(address(54)).toHaveLength(254);
    expect((await invite(acme, { roleId: acme.roles.employee.id, email: address(54) })).response.status).toBe(201);
    expectFieldError(await invite(acme, { roleId: acme.roles.employee.id, email: address(55) }), 400, 'email');
  });

  it('when a field is missing or unknown, then 400 naming it', async () => {
    const acme = await company();
    expectFieldError(await invite(acme, { email: 'joao@acme.com.br' }), 400, 'roleId');
    expectFieldError(await invite(acme, { roleId: acme.roles.employee.id }), 400, 'email');
    expectFieldError(
      await invite(acme, { roleId: acme.roles.employee.id, email: 'joao@acme.com.br', name: 'João' }),
      400,
      'name',
    );
  });
});

describe('createInvite conflicts', () => {
  it('when the address belongs to a member, in any case, then 409 naming email', async () => {
    const acme = await company();
    expectFieldError(
      await invite(acme, { roleId: acme.roles.employee.id, email: 'Carlos.Mendes@ACME.com.br' }),
      409,
      'email',
    );
    expect(await invitesOf(acme.companyId)).toEqual([]);
  });

  it('when the address belongs to an inactive member, then 409 naming email', async () => {
    const acme = await company();
    await createUser(server.db, acme.companyId, {
      role_id: acme.roles.employee.id,
      email: 'otavio.nunes@acme.com.br',
      active: 0,
    });
    expectFieldError(
      await invite(acme, { roleId: acme.roles.employee.id, email: 'otavio.nunes@acme.com.br' }),
      409,
      'email',
    );
  });

  it('when the address belonged to a deleted user, then it can be invited again', async () => {
    const acme = await company();
    const gone = await createUser(server.db, acme.companyId, {
      role_id: acme.roles.employee.id,
      email: 'ex.colaborador@acme.com.br',
    });
    await acme.api.DELETE('/users/v1/users/{userId}', { params: { path: { userId: gone.id } } });
    expect(
      (await invite(acme, { roleId: acme.roles.employee.id, email: 'ex.colaborador@acme.com.br' })).response.status,
    ).toBe(201);
  });

  it('when the address has a pending invite, in any case, then 409 naming email and no second invite', async () => {
    const acme = await company();
    await invite(acme, { roleId: acme.roles.employee.id, email: 'joao.pereira@acme.com.br' });
    expectFieldError(
      await invite(acme, { roleId: acme.roles.manager.id, email: 'JOAO.Pereira@Acme.COM.BR' }),
      409,
      'email',
    );
    expect(await invitesOf(acme.companyId)).toHaveLength(1);
  });

  it('when the pending invite expires one millisecond from now, then it still holds the address: 409', async () => {
    const acme = await company();
    const expiresAt = new Date(server.clock.now().getTime() + 1).toISOString();
    await createInvite(server.db, acme.companyId, {
      role_id: acme.roles.employee.id,
      email: 'joao@acme.com.br',
      expires_at: expiresAt,
    });
    expectFieldError(await invite(acme, { roleId: acme.roles.employee.id, email: 'joao@acme.com.br' }), 409, 'email');
  });

  it('when the previous invite expired now, then a new one is created and the old one is stored as EXPIRED', async () => {
    const acme = await company();
    await createInvite(server.db, acme.companyId, {
      role_id: acme.roles.employee.id,
      email: 'joao@acme.com.br',
      expires_at: server.clock.now().toISOString(),
    });
    expect((await invite(acme, { roleId: acme.roles.employee.id, email: 'joao@acme.com.br' })).response.status).toBe(
      201,
    );
    expect((await invitesOf(acme.companyId)).map((i) => i.status).sort()).toEqual(['EXPIRED', 'PENDING']);
  });

  it("when another company has a pending invite for the address, then this company's invite is independent: 201", async () => {
    const acme = await company();
    const globex = await company();
    await invite(globex, { roleId: globex.roles.employee.id, email: 'joao@acme.com.br' });
    expect((await invite(acme, { roleId: acme.roles.employee.id, email: 'joao@acme.com.br' })).response.status).toBe(
      201,
    );
  });

  it('when two invites to the same address arrive at once, then exactly one is 201 and the other 409', async () => {
    const acme = await company();
    const results = await Promise.all([
      invite(acme, { roleId: acme.roles.employee.id, email: 'joao@acme.com.br' }),
      invite(acme, { roleId: acme.roles.manager.id, email: 'Joao@acme.com.br' }),
    ]);
    expect(results.map((r) => r.response.status).sort()).toEqual([201, 409]);
    expect(await invitesOf(acme.companyId)).toHaveLength(1);
  });

  it('when the token has users:read only, then 403 and nothing is stored', async () => {
    const acme = await company();
    const reader = await server.newCompany({ scopes: ['users:read'] });
    expect((await invite(reader, { roleId: acme.roles.employee.id, email: 'joao@acme.com.br' })).response.status).toBe(
      403,
    );
    expect(await invitesOf(acme.companyId)).toEqual([]);
  });
});

describe('accepting an invite', () => {
  it('when the invite is pending, then it becomes an active user with the invited role, and the address is a member', async () => {
    const acme = await company();
    await invite(acme, { roleId: acme.roles.manager.id, email: 'Joao.Pereira@acme.com.br' });
    const user = await acceptInvite(server.db, server.clock, acme.companyId, { email: 'joao.pereira@ACME.com.br' });
    const { data } = await acme.api.GET('/users/v1/users/{userId}', { params: { path: { userId: user.id } } });
    expect(data).toEqual({
      id: user.id,
      email: 'Joao.Pereira@acme.com.br',
      name: 'Joao Pereira',
      role: { id: acme.roles.manager.id, name: 'Finance manager' },
      active: true,
    });
    expect((await invitesOf(acme.companyId))[0]).toMatchObject({ status: 'ACCEPTED', user_id: user.id });
    expectFieldError(
      await invite(acme, { roleId: acme.roles.employee.id, email: 'joao.pereira@acme.com.br' }),
      409,
      'email',
    );
  });

  it('when a name is given, then the user gets it; beyond 120 characters, it is refused', async () => {
    const acme = await company();
    await invite(acme, { roleId: acme.roles.employee.id, email: 'joao@acme.com.br' });
    const accept = (name: string) =>
      acceptInvite(server.db, server.clock, acme.companyId, { email: 'joao@acme.com.br', name });
    await expect(accept('x'.repeat(121))).rejects.toBeInstanceOf(InviteNotAcceptable);
    expect((await accept('João da Silva')).name).toBe('João da Silva');
  });

  it('when the invite expired, or there is none, or it was already accepted, then it is refused and no user is created', async () => {
    const acme = await company();
    await createInvite(server.db, acme.companyId, {
      role_id: acme.roles.employee.id,
      email: 'late@acme.com.br',
      expires_at: server.clock.now().toISOString(),
    });
    await expect(
      acceptInvite(server.db, server.clock, acme.companyId, { email: 'late@acme.com.br' }),
    ).rejects.toBeInstanceOf(InviteNotAcceptable);
    await expect(
      acceptInvite(server.db, server.clock, acme.companyId, { email: 'nobody@acme.com.br' }),
    ).rejects.toBeInstanceOf(InviteNotAcceptable);
    await invite(acme, { roleId: acme.roles.employee.id, email: 'once@acme.com.br' });
    await acceptInvite(server.db, server.clock, acme.companyId, { email: 'once@acme.com.br' });
    await expect(
      acceptInvite(server.db, server.clock, acme.companyId, { email: 'once@acme.com.br' }),
    ).rejects.toBeInstanceOf(InviteNotAcceptable);
    const { data } = await acme.api.GET('/users/v1/users', { params: { query: {} } });
    expect(data?.data.map((u) => u.email).sort()).toEqual([
      'carlos.mendes@acme.com.br',
      'helena.duarte@acme.com.br',
      'once@acme.com.br',
    ]);
  });

  it('when the invite belongs to another company, then it is refused', async () => {
    const acme = await company();
    const globex = await company();
    await invite(globex, { roleId: globex.roles.employee.id, email: 'joao@acme.com.br' });
    await expect(
      acceptInvite(server.db, server.clock, acme.companyId, { email: 'joao@acme.com.br' }),
    ).rejects.toBeInstanceOf(InviteNotAcceptable);
  });
});
