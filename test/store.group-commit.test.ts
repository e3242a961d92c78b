// SQLite group commit (server/db/sqlite-group-commit.ts): concurrent write transactions share one
// COMMIT; none is reported done before that COMMIT; a failing one leaves the others' writes; reads
// outside transactions never see a write its COMMIT has not made durable.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../server/db/database.js';
import { openStore } from '../server/db/store.js';
import { writeTransaction } from '../server/db/transaction.js';
import { onPostgres } from './support/database.js';

const values = async (db: Db) =>
  (await sql<{ v: string }>`select v from gc_probe order by v`.execute(db)).rows.map((r) => r.v);
const insert = (db: Db, v: string) => sql`insert into gc_probe (v) values (${v})`.execute(db);

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setTimeout(r, 30));
  return done;
};

// `:memory:` on purpose as well: an in-memory store has a single connection, a branch of the driver
// of its own (reads wait for the writer's lock instead of using a reader connection).
describe.skipIf(onPostgres).each([
  ['a database file', 'file'],
  ['an in-memory database', 'memory'],
] as const)('group commit on %s', (_name, kind) => {
  let dir: string;
  let db: Db;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    db = (await openStore(kind === 'file' ? join(dir, 'finance.sqlite') : ':memory:', { migrate: false })).db;
    await sql`create table gc_probe (v text primary key)`.execute(db);
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when a transaction commits while another is open, then it is reported done only when the group commits, and both are kept', async () => {
    const held = gate();
    const first = writeTransaction(db, (trx) => insert(trx, 'a'));
    const second = writeTransaction(db, async (trx) => {
      await insert(trx, 'b');
      await held.opened;
    });
    expect(await settled(first)).toBe(false);
    if (kind === 'file') expect(await values(db)).toEqual([]);
    held.open();
    await Promise.all([first, second]);
    expect(await values(db)).toEqual(['a', 'b']);
  });

  it('when one transaction of a group fails, then its writes are undone, the others are kept, and only it sees the error', async () => {
    const results = await Promise.allSettled([
      writeTransaction(db, (trx) => insert(trx, 'a')),
      writeTransaction(db, async (trx) => {
        await insert(trx, 'x');
        throw new Error('refused');
      }),
      writeTransaction(db, (trx) => insert(trx, 'a')), // duplicate key: fails in the database
      writeTransaction(db, (trx) => insert(trx, 'c')),
      insert(db, 'd'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('refused');
    expect(await values(db)).toEqual(['a', 'c', 'd']);
  });

  it('when a write outside a transaction is acknowledged, then it is in the database', async () => {
    await insert(db, 'solo');
    expect(await values(db)).toEqual(['solo']);
  });

  it.skipIf(kind === 'memory')(
    'when the store is closed with transactions in flight, then it waits for them and every acknowledged write is on disk',
    async () => {
      const held = gate();
      const first = writeTransaction(db, (trx) => insert(trx, 'a'));
      const second = writeTransaction(db, async (trx) => {
        await held.opened;
        await insert(trx, 'b');
      });
      expect(await settled(first)).toBe(false);
      const closed = db.destroy();
      held.open();
      await Promise.all([first, second, closed]);
      db = (await openStore(join(dir, 'finance.sqlite'), { migrate: false })).db;
      expect(await values(db)).toEqual(['a', 'b']);
    },
  );
});
