// The names a statement query joins from the users and directory areas (server/areas/directory/public.ts, server/areas/users/public.ts):
// each row carries its user's and requester's addresses and its category's and cost center's names,
// typed, and null where the row references none.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { withDisplayNames } from '../server/areas/directory/public.js';
import { withRequesterEmail } from '../server/areas/users/public.js';
import { createCategory, createCostCenter } from './support/factories/directory.js';
import { createAccount, createBankingTransactions } from './support/factories/statements.js';
import { createRoles, createUser } from './support/factories/users.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('withDisplayNames and withRequesterEmail', () => {
  it('when a statement query is given the names, then each row has its references named and null where it has none', async () => {
    const { db } = server;
    const { companyId } = await server.newCompany();
    const roles = await createRoles(db, companyId);
    const user = await createUser(db, companyId, { role_id: roles.employee.id, email: 'Ana@Acme.com.br' });
    const requester = await createUser(db, companyId, { role_id: roles.manager.id });
    const category = await createCategory(db, companyId, { name: 'Travel' });
    const costCenter = await createCostCenter(db, companyId, { name: 'Sales' });
    const [named, bare] = await createBankingTransactions(db, companyId, await createAccount(db, companyId), [
      {
        user_id: user.id,
        requester_user_id: requester.id,
        custom_category_id: category.id,
        cost_center_id: costCenter.id,
      },
      {},
    ]);

    const rows = await withRequesterEmail(
      withDisplayNames(
        db.selectFrom('banking_transactions as t').select(['t.id', 't.notes']).where('t.company_id', '=', companyId),
      ),
    )
      .orderBy('t.id')
      .execute();

    expectTypeOf(rows[0]!).toEqualTypeOf<{
      id: number;
      notes: string;
      user_email: string | null;
      requester_email: string | null;
      custom_category_name: string | null;
      cost_center_name: string | null;
    }>();
    expect(rows.map(({ notes: _, ...row }) => row)).toEqual([
      {
        id: named,
        user_email: 'Ana@Acme.com.br',
        requester_email: requester.email,
        custom_category_name: 'Travel',
        cost_center_name: 'Sales',
      },
      { id: bare, user_email: null, requester_email: null, custom_category_name: null, cost_center_name: null },
    ]);
  });
});
