// An ingest publishes in short transactions as one run; a run that fails part-way, or whose process
// died, is undone whole: no row of it stays, balances and bill totals are as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';
import { bankingRow, createAccount, creditCardRow } from './support/factories/statements.js';
import { ABANDONED_RUN_MS, publishIngest, undoAbandonedRuns } from '../server/areas/statements/store/ingest-runs.js';
import { insertBankingTransactions } from '../server/areas/statements/store/insert.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server.close());

async function snapshot(companyId: string, accountId: number) {
  const account = await server.db
    .selectFrom('accounts')
    .select(['balance_minor', 'blocked_minor'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  const banking = await server.db
    .selectFrom('banking_transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  const cards = await server.db
    .selectFrom('credit_card_transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  const bills = await server.db
    .selectFrom('bills')
    .select(['due_date', 'total_minor'])
    .where('company_id', '=', companyId)
    .orderBy('due_date')
    .execute();
  const runs = await server.db.selectFrom('ingest_runs').select('id').where('company_id', '=', companyId).execute();
  return {
    account,
    banking: Number(banking.n),
    cards: Number(cards.n),
    bills: bills.filter((b) => b.total_minor !== 0),
    runs: runs.length,
  };
}

describe('ingest runs', () => {
  it('when publishing fails after some chunks were stored, then every row of the run is removed and balances and bills are as before', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId, { openingMinor: 100_000 });
    const before = await snapshot(acme.companyId, account);
    const banking = Array.from({ length: 2_500 }, (_, i) =>
      bankingRow(acme.companyId, account, { status: ((i % 3) + 1) as 1 | 2 | 3, sub_type: i % 2 ? 'DEBIT' : 'CREDIT' }),
    );
    const card = creditCardRow(acme.companyId, { status: 2 });
    // The same credit-card id twice: the card chunk fails after every banking chunk was published.
    const err = await publishIngest(server.db, acme.companyId, banking, [card, { ...card }], server.clock.now()).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(await snapshot(acme.companyId, account)).toEqual(before);
  });

  it('when a run was abandoned by a dead process, then the next ingest undoes it first; a live run is left alone', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId, { openingMinor: 0 });
    const before = await snapshot(acme.companyId, account);
    const stale = new Date(Date.now() - ABANDONED_RUN_MS - 60_000).toISOString();
    const live = new Date().toISOString();
    for (const [id, heartbeat] of [
      ['dead-run', stale],
      ['live-run', live],
    ] as const) {
      await server.db
        .insertInto('ingest_runs')
        .values({
          id: `${id}-${acme.companyId}`,
          company_id: acme.companyId,
          status: 'LOADING',
          started_at: heartbeat,
          heartbeat_at: heartbeat,
        })
        .execute();
    }
    await server.db.transaction().execute((trx) =>
      insertBankingTransactions(
        trx,
        [
          bankingRow(acme.companyId, account, {
            status: 2,
            sub_type: 'CREDIT',
            total_amount_minor: 5_000,
            brl_amount_minor: 5_000,
          }),
        ].map((r) => ({ ...r, ingest_run_id: `dead-run-${acme.companyId}` })),
        server.clock.now(),
      ),
    );
    expect((await snapshot(acme.companyId, account)).account.balance_minor).toBe(5_000);

    expect(await undoAbandonedRuns(server.db, server.clock.now())).toBeGreaterThanOrEqual(1);
    const after = await snapshot(acme.companyId, account);
    expect({ ...after, runs: 0 }).toEqual(before);
    expect(after.runs).toBe(1);
  });
});
