// seedVcn: a seeded company can issue every card type in BRL and USD, and only those.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVcn } from '../server/sandbox/seed/vcn.js';
import { createRng } from '../server/lib/random.js';
import { startTestServer, type TestServer } from './support/server.js';
import { expectVcnError, issue, requestOf } from './support/factories/vcn.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

describe('seedVcn', () => {
  it('when a company is seeded, then it has BRL and USD funding cards for every type and can issue with each', async () => {
    const acme = await server.newCompany();
    await seedVcn(server.db, { companyId: acme.companyId, rng: createRng(7), clock: server.clock, transactions: 0 });
    const funding = await server.db
      .selectFrom('funding_cards')
      .select(['card_type', 'currency'])
      .where('company_id', '=', acme.companyId)
      .where('active', '=', 1)
      .orderBy('card_type')
      .orderBy('currency')
      .execute();
    expect(funding.map((f) => `${f.card_type}/${f.currency}`)).toEqual([
      'AERIAL/BRL',
      'AERIAL/USD',
      'CUSTOM/BRL',
      'CUSTOM/USD',
      'HOTEL/BRL',
      'HOTEL/USD',
    ]);
    for (const currency of ['BRL', 'USD']) {
      await issue(acme, requestOf.HOTEL({ amount: { rate: 100, taxes: 10, currency } }));
      await issue(acme, requestOf.AERIAL({ amount: { rate: 100, taxes: 10, currency } }));
      await issue(acme, requestOf.CUSTOM({ limit: { value: 100, currency } }));
    }
    const eur = await acme.api.POST('/credit-cards/v1/vcns', {
      body: requestOf.CUSTOM({ limit: { value: 100, currency: 'EUR' } }),
    });
    expectVcnError(eur, 400, 'active-funding-card-not-found');
  });

  it('when seeded twice, then there is still one active funding card per type and currency', async () => {
    const acme = await server.newCompany();
    const ctx = { companyId: acme.companyId, rng: createRng(7), clock: server.clock, transactions: 0 };
    await seedVcn(server.db, ctx);
    await seedVcn(server.db, ctx);
    const active = await server.db
      .selectFrom('funding_cards')
      .select('id')
      .where('company_id', '=', acme.companyId)
      .where('active', '=', 1)
      .execute();
    expect(active).toHaveLength(6);
  });
});
