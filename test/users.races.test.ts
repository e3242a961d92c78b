// The rules under concurrency, calling the rules directly so that the two operations interleave
// at every database round trip (through HTTP, request parsing tends to serialize them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { createPeople, createUser } from './support/factories/users.js';
import { deleteUser, updateUser } from '../server/areas/users/users-service.js';
import { createInvite } from '../server/areas/users/invites-service.js';
import { countActiveAdministrators } from '../server/areas/users/store/users.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

/** A company with exactly two active administrators. */
async function twoAdministrators() {
  const { companyId } = await server.newCompany();
  const people = await createPeople(server.db, companyId);
  const second = await createUser(server.db, companyId, { role_id: people.roles.responsible.id });
  return { companyId, ...people, second };
}

const outcomes = (results: PromiseSettledResult<unknown>[]) =>
  results.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as { status?: number }).status)).sort();

describe('users rules under concurrency', () => {
  it('when the last two administrators are demoted at once, then one demotion is refused (409) and one administrator remains', async () => {
    const acme = await twoAdministrators();
    const results = await Promise.allSettled([
      updateUser(server.db, server.clock, acme.companyId, acme.admin.id, { roleId: acme.roles.employee.id }),
      updateUser(server.db, server.clock, acme.companyId, acme.second.id, { roleId: acme.roles.manager.id }),
    ]);
    expect(outcomes(results)).toEqual([409, 'ok']);
    expect(await countActiveAdministrators(server.db, acme.companyId)).toBe(1);
  });

  it('when the last two administrators are deleted at once, then one deletion is refused (409) and one administrator remains', async () => {
    const acme = await twoAdministrators();
    const results = await Promise.allSettled([
      deleteUser(server.db, server.clock, acme.companyId, acme.admin.id),
      deleteUser(server.db, server.clock, acme.companyId, acme.second.id),
    ]);
    expect(outcomes(results)).toEqual([409, 'ok']);
    expect(await countActiveAdministrators(server.db, acme.companyId)).toBe(1);
  });

  it('when one administrator is demoted while the other is deleted, then one administrator remains', async () => {
    const acme = await twoAdministrators();
    const results = await Promise.allSettled([
      updateUser(server.db, server.clock, acme.companyId, acme.admin.id, { roleId: acme.roles.employee.id }),
      deleteUser(server.db, server.clock, acme.companyId, acme.second.id),
    ]);
    expect(outcomes(results)).toEqual([409, 'ok']);
    expect(await countActiveAdministrators(server.db, acme.companyId)).toBe(1);
  });

  it('when five invites to the same address (in different cases) arrive at once, then exactly one is created', async () => {
    const acme = await twoAdministrators();
    const emails = ['joao@acme.com.br', 'JOAO@acme.com.br', 'Joao@Acme.com.br', 'joao@ACME.COM.BR', 'jOaO@acme.com.br'];
    const results = await Promise.allSettled(
      emails.map((email) =>
        createInvite(server.db, server.clock, acme.companyId, { roleId: acme.roles.employee.id, email }),
      ),
    );
    expect(outcomes(results)).toEqual([409, 409, 409, 409, 'ok']);
    const stored = await server.db
      .selectFrom('invites')
      .select('status')
      .where('company_id', '=', acme.companyId)
      .execute();
    expect(stored).toEqual([{ status: 'PENDING' }]);
  });
});
