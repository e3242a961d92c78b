import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { seedUsers } from '../server/sandbox/seed/users.js';
import { createRng } from '../server/lib/random.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

async function seeded(seed: number, name = 'Padaria Pão Quente Ltda'): Promise<TestCompany> {
  const company = await server.newCompany({ name });
  await seedUsers(server.db, {
    companyId: company.companyId,
    rng: createRng(seed),
    clock: server.clock,
    transactions: 0,
  });
  return company;
}

const people = async (company: TestCompany) => {
  const users = (await company.api.GET('/users/v1/users', { params: { query: { limit: 100 } } })).data!.data;
  const roles = (await company.api.GET('/users/v1/roles', { params: { query: {} } })).data!.items;
  return { users, roles };
};

describe('seedUsers', () => {
  it('when a company is seeded, then it has one MAIN user, an active RESPONSIBLE, others, one inactive user and a pending invite', async () => {
    const acme = await seeded(1);
    const { users, roles } = await people(acme);
    const profileOf = (roleId: string) => roles.find((r) => r.id === roleId)?.profile;
    expect(roles.map((r) => r.profile).sort()).toEqual(['EMPLOYEE', 'MAIN', 'MANAGER', 'MANAGER', 'RESPONSIBLE']);
    expect(users.filter((u) => profileOf(u.role.id) === 'MAIN')).toHaveLength(1);
    expect(users.filter((u) => u.active && profileOf(u.role.id) === 'RESPONSIBLE').length).toBeGreaterThanOrEqual(1);
    expect(users.filter((u) => !u.active)).toHaveLength(1);
    expect(users.length).toBeGreaterThanOrEqual(8);
    for (const user of users) expect(user.email).toMatch(/^[a-z]+\.[a-z]+@padariapaoquente\.com\.br$/);
    const invites = await server.db
      .selectFrom('invites')
      .selectAll()
      .where('company_id', '=', acme.companyId)
      .execute();
    expect(invites).toEqual([expect.objectContaining({ status: 'PENDING' })]);
    expect(users.map((u) => u.email)).not.toContain(invites[0]?.email);
  });

  it('when two companies are seeded with the same seed, then they get the same people under distinct ids', async () => {
    const [a, b] = [await people(await seeded(7)), await people(await seeded(7))];
    expect(a.users.map((u) => [u.name, u.email, u.phone, u.active])).toEqual(
      b.users.map((u) => [u.name, u.email, u.phone, u.active]),
    );
    expect(a.users.some((u) => b.users.some((v) => v.id === u.id))).toBe(false);
  });

  it('when a company is seeded twice, then people are not duplicated', async () => {
    const acme = await seeded(3);
    await seedUsers(server.db, { companyId: acme.companyId, rng: createRng(4), clock: server.clock, transactions: 0 });
    const { users, roles } = await people(acme);
    expect(roles).toHaveLength(5);
    expect(users).toHaveLength(11);
  });

  it('when seeded, then an invite to a seeded member is refused and the pending invite blocks a second one', async () => {
    const acme = await seeded(5);
    const { users, roles } = await people(acme);
    const employee = roles.find((r) => r.profile === 'EMPLOYEE')!;
    const member = await acme.api.POST('/users/v1/invites', { body: { roleId: employee.id, email: users[0]!.email } });
    expect(member.response.status).toBe(409);
    const [pending] = await server.db
      .selectFrom('invites')
      .select('email')
      .where('company_id', '=', acme.companyId)
      .execute();
    expect(
      (await acme.api.POST('/users/v1/invites', { body: { roleId: employee.id, email: pending!.email } })).response
        .status,
    ).toBe(409);
  });
});
