// An ingest stages its rows in short transactions and publishes them in its closing transaction:
// until then no list, balance or bill shows any of them; a run that fails part-way, or whose
// process died, is undone whole: no row of it stays, balances and bill totals are as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { bankingRow, createAccount, creditCardRow } from './support/factories/statements.js';
import { ABANDONED_RUN_MS, publishIngest, undoAbandonedRuns } from '../server/areas/statements/store/ingest-runs.js';
import { stageBanking } from '../server/areas/statements/store/ingest-staging.js';

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
  const count = async (table: 'banking_transactions' | 'credit_card_transactions') =>
    Number(
      (
        await server.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('company_id', '=', companyId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const bills = await server.db
    .selectFrom('bills')
    .select(['due_date', 'total_minor'])
    .where('company_id', '=', companyId)
    .orderBy('due_date')
    .execute();
  const runs = await server.db.selectFrom('ingest_runs').select('id').where('company_id', '=', companyId).execute();
  const staged = await server.db
    .selectFrom('ingest_banking_rows')
    .select('run_id')
    .where('company_id', '=', companyId)
    .union(server.db.selectFrom('ingest_credit_card_rows').select('run_id').where('company_id', '=', companyId))
    .execute();
  return {
    account,
    banking: await count('banking_transactions'),
    cards: await count('credit_card_transactions'),
    bills: bills.filter((b) => b.total_minor !== 0),
    runs: runs.length,
    staged: staged.length,
  };
}

/** What a reader sees through the API: banking rows listed, the account's balance, the bills' totals. */
async function seen(acme: TestCompany) {
  const list = await acme.api.GET('/statements/v1/banking', { params: { query: { limit: 50 } } });
  const balance = await acme.api.GET('/accounts/v1/balance');
  const bills = await acme.api.GET('/credit-cards/v1/bills');
  return {
    listed: list.data?.transactions.length,
    balances: balance.data,
    bills: (bills.data?.items ?? []).map((b) => [b.dueDate, b.totalAmount]),
  };
}

describe('ingest runs', () => {
  it('when rows are staged chunk by chunk, then no reader sees any of them until the closing transaction, and then all', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId, { openingMinor: 100_000 });
    const before = await seen(acme);
    const banking = Array.from({ length: 2_500 }, () =>
      bankingRow(acme.companyId, account, { status: 2, sub_type: 'CREDIT' }),
    );
    const cards = Array.from({ length: 1_200 }, () => creditCardRow(acme.companyId, { status: 2 }));
    const during: Array<Awaited<ReturnType<typeof seen>>> = [];
    let staged = 0;
    await publishIngest(server.db, acme.companyId, banking, cards, server.clock.now(), async (_phase, done) => {
      staged = done;
      during.push(await seen(acme));
    });
    // Progress is reported after each staging chunk commits: five of them, each seen as before.
    expect(staged).toBe(3_700);
    expect(during).toHaveLength(5);
    for (const view of during) expect(view).toEqual(before);
    const after = await seen(acme);
    expect(after.listed).toBe(50);
    expect(after.balances).not.toEqual(before.balances);
    expect(after.bills.length).toBeGreaterThan(0);
    const rows = await snapshot(acme.companyId, account);
    expect(rows).toMatchObject({ banking: 2_500, cards: 1_200, runs: 1, staged: 0 });
  });

  it('when publishing fails in the closing transaction, then nothing of the run is stored and balances and bills are as before', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId, { openingMinor: 100_000 });
    const before = await snapshot(acme.companyId, account);
    const banking = Array.from({ length: 2_500 }, (_, i) =>
      bankingRow(acme.companyId, account, { status: ((i % 3) + 1) as 1 | 2 | 3, sub_type: i % 2 ? 'DEBIT' : 'CREDIT' }),
    );
    const card = creditCardRow(acme.companyId, { status: 2 });
    // The same credit-card id twice: every chunk stages, the move into the statement tables fails.
    const err = await publishIngest(server.db, acme.companyId, banking, [card, { ...card }], server.clock.now()).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(await snapshot(acme.companyId, account)).toEqual(before);
  });

  it('when a run was abandoned by a dead process, then the next ingest undoes it first; a live run is left alone', async () => {
    const acme = await server.newCompany();
    const account = await createAccount(server.db, acme.companyId, { openingMinor: 0 });
    const stale = new Date(Date.now() - ABANDONED_RUN_MS - 60_000).toISOString();
    const live = new Date().toISOString();
    for (const [id, heartbeat] of [
      ['dead-run', stale],
      ['live-run', live],
    ] as const) {
      const runId = `${id}-${acme.companyId}`;
      await server.db
        .insertInto('ingest_runs')
        .values({
          id: runId,
          company_id: acme.companyId,
          status: 'LOADING',
          started_at: heartbeat,
          heartbeat_at: heartbeat,
        })
        .execute();
      await stageBanking(server.db, runId, 0, [bankingRow(acme.companyId, account, { status: 2 })]);
    }
    expect(await snapshot(acme.companyId, account)).toMatchObject({ banking: 0, runs: 2, staged: 2 });

    expect(await undoAbandonedRuns(server.db)).toBeGreaterThanOrEqual(1);
    expect(await snapshot(acme.companyId, account)).toMatchObject({
      account: { balance_minor: 0 },
      banking: 0,
      runs: 1,
      staged: 1,
    });
  });
});
