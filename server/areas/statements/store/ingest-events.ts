// The created events of a published ingest run, recorded after the closing transaction so that it
// holds the write lock for the move alone: CHUNK rows' events per short transaction, each advancing
// the run's cursor (migration 0031) in the same transaction, banking rows then credit-card rows in id
// order, then the run's `statement.ingested` summary, which clears the cursor. A crash between chunks
// loses and repeats nothing: the next ingest finishes the run from its cursor before its own rows.
// Until then the rows are listed (and in the change feeds, which read the rows, not the events)
// without their created events: the events follow the rows, never the other way round.
import { PLATFORM } from '../../../kit/handler.js';
import type { Db } from '../../../db/database.js';
import { writeTransaction } from '../../../db/transaction.js';
import { letOtherWritersIn } from '../../../db/retry.js';
import { recordEvent } from '../../events/public.js';
import { companyTimeZone } from '../../auth/public.js';
import { recordBankingCreated, recordCreditCardCreated } from './changes.js';

/** Rows' events per transaction. */
const CHUNK = 1_000;

/** Called after each chunk's transaction commits: the chunks recorded so far, and how long this one took (ms). */
export type OnEventChunk = (chunks: number, ms: number) => void | Promise<void>;

/** One chunk of the run's events; false once the run has none left. */
async function recordChunk(trx: Db, runId: string): Promise<boolean> {
  const run = await trx
    .selectFrom('ingest_runs')
    .select(['company_id', 'events_seq', 'events_banking_after', 'events_card_after', 'events_at', 'events_summary'])
    .where('id', '=', runId)
    .executeTakeFirst();
  if (!run || run.events_seq === null || run.events_seq === undefined) return false;
  const companyId = run.company_id;
  const version = Number(run.events_seq);
  const now = new Date(run.events_at ?? 0);
  const at = { now, timeZone: (await companyTimeZone(trx, companyId)) ?? 'UTC', actor: PLATFORM };
  const banking = await recordBankingCreated(trx, companyId, version, Number(run.events_banking_after ?? 0), CHUNK, at);
  if (banking !== undefined) {
    await trx.updateTable('ingest_runs').set({ events_banking_after: banking }).where('id', '=', runId).execute();
    return true;
  }
  const card = await recordCreditCardCreated(trx, companyId, version, run.events_card_after ?? '', CHUNK, at);
  if (card !== undefined) {
    await trx.updateTable('ingest_runs').set({ events_card_after: card }).where('id', '=', runId).execute();
    return true;
  }
  // The summary of the whole file, after one event per new transaction.
  if (run.events_summary)
    await recordEvent(trx, now, {
      companyId,
      type: 'statement.ingested',
      requestId: null,
      object: JSON.parse(run.events_summary),
    });
  await trx.updateTable('ingest_runs').set({ events_seq: null }).where('id', '=', runId).execute();
  return false;
}

/** Records what is left of a published run's events, a chunk per transaction. */
export async function recordRunEvents(db: Db, runId: string, onChunk?: OnEventChunk): Promise<void> {
  for (let chunk = 1; ; chunk++) {
    const started = performance.now();
    const more = await writeTransaction(db, (trx) => recordChunk(trx, runId));
    if (!more) return;
    await onChunk?.(chunk, performance.now() - started);
    await letOtherWritersIn(db);
  }
}

/** Finishes the events of runs published by a process that stopped before recording them all. */
export async function finishPublishedRuns(db: Db): Promise<number> {
  const runs = await db
    .selectFrom('ingest_runs')
    .select('id')
    .where('events_seq', 'is not', null)
    .orderBy('started_at')
    .orderBy('id')
    .execute();
  for (const run of runs) await recordRunEvents(db, run.id);
  return runs.length;
}
