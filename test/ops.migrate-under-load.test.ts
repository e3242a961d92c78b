// A migration run while the service writes (PostgreSQL: `finance migrate` ahead of a rolling deploy,
// server/db/migrate-postgres.ts). The migration is this build's runner given one more migration that
// does what 0033 did — an index on each statement table in one transaction — and the conflict is made
// on purpose: a write the test holds open on the card statement. Then the migration, waiting for it
// while holding the banking statement, gives way within its lock timeout so the API's banking writes
// go on, and completes once the write ends; and when the held write then needs the banking statement
// (a deadlock, as a load of writes makes now and then), the migration is the one rolled back and runs
// again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql, type Kysely, type Migration } from 'kysely';
import { migrate } from '../server/db/database.js';
import { openStore, type Store } from '../server/db/store.js';
import { migrations } from '../server/db/migrations/index.js';
import { stderrOf } from './support/cli.js';
import { onPostgres } from './support/database.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  createAccount,
  createBankingTransaction,
  createCreditCardTransaction,
} from './support/factories/statements.js';

const indexBoth = (suffix: string): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex(`bt_${suffix}`).on('banking_transactions').columns(['company_id', 'id']).execute();
    await db.schema.createIndex(`cct_${suffix}`).on('credit_card_transactions').columns(['company_id', 'id']).execute();
  },
});
const extra: Record<string, Migration> = {};

let server: TestServer;
let acme: TestCompany;
let store: Store;
let bankingId: number;
let cardId: string;

beforeAll(async () => {
  if (!onPostgres) return;
  server = await startTestServer({ deliveries: 'manual' });
  acme = await server.newCompany();
  const account = await createAccount(server.db, acme.companyId);
  bankingId = await createBankingTransaction(server.db, acme.companyId, account);
  cardId = await createCreditCardTransaction(server.db, acme.companyId);
  // The migrating side's own connections, as `finance migrate` in another process has.
  store = await openStore(server.location, { migrate: false });
});
afterAll(async () => {
  await store?.close();
  await server?.close();
});

/** A connection holding a write on the card statement, in a transaction left open. */
async function holdCardWrite(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: server.location });
  await client.connect();
  await client.query('begin');
  await client.query('update credit_card_transactions set notes = notes where id = $1', [cardId]);
  return client;
}

/** Resolves once a CREATE INDEX waits for a lock. */
async function migrationWaiting(): Promise<void> {
  for (const end = Date.now() + 10_000; Date.now() < end; ) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike 'create index%'`.execute(
      server.db,
    );
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the migration never waited for a lock');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const indexesNamed = async (suffix: string) =>
  (
    await sql<{ name: string }>`select indexname as name from pg_indexes where indexname like ${`%_${suffix}`}
      order by indexname`.execute(server.db)
  ).rows.map((row) => row.name);

describe.runIf(onPostgres)('migrating beside a writing service', () => {
  it('when a write holds a table the migration needs, then the migration gives way within its lock timeout, the API keeps writing, and it completes once the write ends', async () => {
    extra['0900_walk_indexes'] = indexBoth('walk');
    const answers: Array<{ status: number; ms: number; held: boolean }> = [];
    const log = await stderrOf(async () => {
      const holder = await holdCardWrite();
      const migrating = migrate(store.db, { ...migrations, ...extra }, { lockTimeoutMs: 100 });
      const failed = migrating.then(
        () => undefined,
        (err: unknown) => err,
      );
      await migrationWaiting();

      // The held write ends in 2 s. Meanwhile the API writes the banking statement, which the
      // migration's first index holds while it waits.
      let held = true;
      const released = sleep(2_000).then(async () => {
        await holder.query('commit');
        held = false;
        await holder.end();
      });
      while (held) {
        const start = performance.now();
        const patched = await acme.api.PATCH('/statements/v1/banking/{transactionId}', {
          params: { path: { transactionId: bankingId } },
          body: { notes: `write ${answers.length}` },
        });
        answers.push({ status: patched.response.status, ms: Math.round(performance.now() - start), held });
        await sleep(20);
      }
      await released;
      expect(await failed).toBeUndefined();
    });
    expect(log).toMatch(
      /migration 0900_walk_indexes gave way to the running service \(canceling statement due to lock timeout\); rolled back, attempt 2 of 10 follows/,
    );

    expect(answers.filter((a) => a.status !== 204)).toEqual([]);
    // Queued behind a migration that waits for the held write, no write is answered while it is held.
    expect(answers.filter((a) => a.held).length, JSON.stringify(answers)).toBeGreaterThanOrEqual(5);
    expect(await indexesNamed('walk')).toEqual(['bt_walk', 'cct_walk']);
  }, 60_000);

  it('when the held write then needs the table the migration holds (a deadlock), then the migration is rolled back, the write goes through and the migration runs again', async () => {
    extra['0901_deadlock_indexes'] = indexBoth('deadlock');
    const log = await stderrOf(async () => {
      const holder = await holdCardWrite();
      // A lock timeout longer than PostgreSQL's deadlock_timeout (1 s): the deadlock check ends the wait.
      const migrating = migrate(store.db, { ...migrations, ...extra }, { lockTimeoutMs: 5_000 });
      const failed = migrating.then(
        () => undefined,
        (err: unknown) => err,
      );
      await migrationWaiting();
      await sleep(300);
      await holder.query('update banking_transactions set notes = notes where id = $1', [bankingId]);
      await holder.query('commit');
      await holder.end();
      expect(await failed).toBeUndefined();
    });
    expect(log).toMatch(
      /migration 0901_deadlock_indexes gave way to the running service \(deadlock detected\); rolled back, attempt 2 of 10 follows/,
    );
    expect(await indexesNamed('deadlock')).toEqual(['bt_deadlock', 'cct_deadlock']);
  }, 60_000);
});
