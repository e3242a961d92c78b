// Cursors of every list operation are bound to the company that received them: the same key sent
// by another company, with the same filters, is refused in the operation's error body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { createSupplier, createCategory } from './support/factories/directory.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';
import { createPeople } from './support/factories/users.js';
import { aerialRequest, fundedCompany, issue, purchase } from './support/factories/vcn.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  server.clock.set('2026-11-20T15:00:00Z');
});
afterAll(async () => server.close());

type Body = 'common' | 'field' | 'vcn';

interface List {
  path: (company: TestCompany, ctx: Record<string, string>) => string;
  /** Gives the company more rows of the list than one page of `pageSize`. */
  fill: (company: TestCompany) => Promise<Record<string, string>>;
  body: Body;
  /** The smallest page the operation takes (1 unless said). */
  pageSize?: number;
}

const noon = (day: string) => `${day}T15:00:00.000Z`;

const LISTS: Record<string, List> = {
  listBankingTransactions: {
    path: () => '/statements/v1/banking',
    fill: async ({ companyId }) => {
      const account = await createAccount(server.db, companyId);
      await createBankingTransactions(server.db, companyId, account, [{}, {}]);
      return {};
    },
    body: 'common',
  },
  listCreditCardTransactions: {
    path: () => '/statements/v1/credit-card',
    fill: async ({ companyId }) => {
      await createCreditCardTransactions(server.db, companyId, [{}, {}, {}, {}, {}, {}]);
      return {};
    },
    body: 'common',
    pageSize: 5,
  },
  listBills: {
    path: () => '/credit-cards/v1/bills',
    fill: async ({ companyId }) => {
      await createCreditCardTransactions(server.db, companyId, [
        { transaction_date: noon('2026-09-15') },
        { transaction_date: noon('2026-10-15') },
      ]);
      return {};
    },
    body: 'common',
  },
  listSuppliers: {
    path: () => '/suppliers/v1/suppliers',
    fill: async ({ companyId }) => {
      await createSupplier(server.db, companyId, { name: 'Alpha' });
      await createSupplier(server.db, companyId, { name: 'Beta' });
      return {};
    },
    body: 'common',
  },
  listCategories: {
    path: () => '/categories/v1/categories',
    fill: async ({ companyId }) => {
      await createCategory(server.db, companyId, { name: 'Alpha' });
      await createCategory(server.db, companyId, { name: 'Beta' });
      return {};
    },
    body: 'common',
  },
  listUsers: {
    path: () => '/users/v1/users',
    fill: async ({ companyId }) => {
      await createPeople(server.db, companyId);
      return {};
    },
    body: 'field',
  },
  listRoles: {
    path: () => '/users/v1/roles',
    fill: async ({ companyId }) => {
      await createPeople(server.db, companyId);
      return {};
    },
    body: 'field',
  },
  listVcnTransactions: {
    path: (_company, { vcnId }) => `/credit-cards/v1/vcns/${vcnId}/transactions`,
    fill: async (company) => {
      const vcn = await issue(company, aerialRequest());
      await purchase(server, vcn.vcnId, 10);
      await purchase(server, vcn.vcnId, 20);
      return { vcnId: vcn.vcnId };
    },
    body: 'vcn',
  },
};

async function get(company: TestCompany, path: string, query: Record<string, string>) {
  const response = await fetch(`${server.baseUrl}${path}?${new URLSearchParams(query)}`, {
    headers: { Authorization: `Bearer ${company.token}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('cursors bound to the company', () => {
  for (const [operation, list] of Object.entries(LISTS)) {
    it(`${operation}: when company B sends company A's nextPageStartKey with the same filters, then 400 in the operation's error body`, async () => {
      const a = list.body === 'vcn' ? await fundedCompany(server) : await server.newCompany();
      const b = list.body === 'vcn' ? await fundedCompany(server) : await server.newCompany();
      const ctxA = await list.fill(a);
      const ctxB = await list.fill(b);
      const limit = String(list.pageSize ?? 1);
      const first = await get(a, list.path(a, ctxA), { limit });
      expect(first.status).toBe(200);
      const key = first.body.nextPageStartKey as string;
      expect(typeof key).toBe('string');
      expect((await get(a, list.path(a, ctxA), { limit, nextPageStartKey: key })).status).toBe(200);

      // A card belongs to one company: on VCN transactions, B sends A's key for its own card.
      const foreign = await get(b, list.path(b, ctxB), { limit, nextPageStartKey: key });
      expect(foreign.status).toBe(400);
      if (list.body === 'vcn') {
        expect(foreign.body).toMatchObject({
          code: 'bad-request-exception',
          errors: [{ field: 'query.nextPageStartKey' }],
        });
      } else if (list.body === 'field') {
        expect(foreign.body).toMatchObject({ code: 400, details: [{ field: 'nextPageStartKey' }] });
      } else {
        expect(foreign.body).toMatchObject({ code: 400, error: 'Bad Request' });
        expect(foreign.body.details).toEqual([expect.stringContaining('nextPageStartKey')]);
      }
    });
  }
});
