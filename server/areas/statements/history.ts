// The identity of this store's history (migration 0018): the change feeds' cursors and the statement
// lists' ETags carry it, so a store that is not the one that issued them — a restored backup, another
// database — refuses a cursor with 410 however far it has moved since (its change numbers could
// otherwise pass the cursor's and silently skip what the cursor's store had after the copy).
// `finance backup` gives its copy a new history; `finance mark-restored` does the same to a database
// restored by other means (pg_restore).
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { writeTransaction } from '../../db/transaction.js';

/** This store's history id. */
export async function storeHistory(db: Db): Promise<string> {
  const row = await db.selectFrom('statement_history').select('id').executeTakeFirst();
  return row?.id ?? '';
}

/** Gives the store a new history: every cursor and statement ETag issued before is refused from now on. */
export async function beginNewHistory(db: Db, now: Date): Promise<string> {
  const id = randomUUID();
  await writeTransaction(db, async (trx) => {
    await trx.deleteFrom('statement_history').execute();
    await trx.insertInto('statement_history').values({ id, started_at: now.toISOString() }).execute();
  });
  return id;
}
