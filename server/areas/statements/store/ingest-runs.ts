// Publishing an ingest without stalling the API and without showing half of it: rows go into the
// staging tables (store/ingest-staging.ts) in short write transactions of CHUNK rows (the API's
// writes run in between: `letOtherWritersIn`), and the run's closing transaction moves them into the statement tables
// with their balances, bill totals and line keys: readers see none of the run, then all of it. The
// rows' created events follow, in short transactions of their own (store/ingest-events.ts), so the
// closing transaction holds the write lock for the move alone.
// Every line was checked before the first chunk, so a later failure is rare (a concurrent ingest
// taking the same credit-card id, a lost connection); then the run is undone: its staged rows
// deleted, nothing else had moved. A process that died mid-run leaves a LOADING run whose heartbeat
// stops; the next ingest undoes it first.
import { signalChange } from '../../../db/change-signals.js';
import { ulid } from 'ulid';
import { systemClock } from '../../../lib/clock.js';
import type { Db } from '../../../db/database.js';
import { writeTransaction } from '../../../db/transaction.js';
import { ingestRunNumber, nextStatementVersion } from '../versions.js';
import { CONFLICT, letOtherWritersIn, retrying } from '../../../db/retry.js';
import type { NewBankingTransaction, NewCreditCardTransaction } from '../tables.js';
import { finishPublishedRuns, recordRunEvents, type OnEventChunk } from './ingest-events.js';
import { dropStaged, moveStaged, runsWithStagedRows, stageBanking, stageCreditCards } from './ingest-staging.js';

/** Rows per staging transaction. */
const CHUNK = 1_000;
/** A LOADING run without a heartbeat for this long belongs to a process that died. */
export const ABANDONED_RUN_MS = 10 * 60_000;

const closingTransaction = (db: Db, work: (trx: Db) => Promise<void>) =>
  db.isTransaction
    ? work(db)
    : retrying(CONFLICT, () => db.transaction().setIsolationLevel('read committed').execute(work));

export async function publishIngest(
  db: Db,
  companyId: string,
  banking: NewBankingTransaction[],
  cards: NewCreditCardTransaction[],
  now: Date,
  /** Called after each staging chunk commits (awaited: a caller may look at the store then). */
  onProgress?: (phase: 'storing', done: number) => void | Promise<void>,
  /** Written in the closing transaction, with the rows (the lines' keys, removals); `version`: the rows' change number. */
  finish?: (trx: Db, version: number) => Promise<void>,
  /** The created events, recorded after the rows: the run's `statement.ingested` object, and a call after each chunk. */
  events: { summary?: object; onChunk?: OnEventChunk } = {},
): Promise<void> {
  await undoAbandonedRuns(db);
  await finishPublishedRuns(db);
  const runId = ulid();
  // Liveness, on the machines' clock (versions.ts: liveRunsSince).
  const at = () => systemClock.now().toISOString();
  await db
    .insertInto('ingest_runs')
    .values({ id: runId, company_id: companyId, status: 'LOADING', started_at: at(), heartbeat_at: at() })
    .execute();
  const heartbeat = (trx: Db) =>
    trx.updateTable('ingest_runs').set({ heartbeat_at: at() }).where('id', '=', runId).execute();
  try {
    for (let i = 0; i < banking.length; i += CHUNK) {
      await writeTransaction(db, async (trx) => {
        await stageBanking(trx, runId, i, banking.slice(i, i + CHUNK));
        await heartbeat(trx);
      });
      await letOtherWritersIn(db);
      await onProgress?.('storing', Math.min(banking.length, i + CHUNK));
    }
    for (let i = 0; i < cards.length; i += CHUNK) {
      await writeTransaction(db, async (trx) => {
        await stageCreditCards(trx, runId, i, cards.slice(i, i + CHUNK));
        await heartbeat(trx);
      });
      await letOtherWritersIn(db);
      await onProgress?.('storing', banking.length + Math.min(cards.length, i + CHUNK));
    }
    const reserved = await ingestRunNumber(db, companyId, runId, at());
    // Read committed, unlike every other write (transaction.ts): the closing transaction only adds rows
    // and increments totals, and its reads of the new rows (their events) would otherwise take
    // predicate locks over the statement that make it and the API's serializable writers abort each
    // other. SQLite runs it as every write, alone.
    await closingTransaction(db, async (trx) => {
      const version = reserved ?? (await nextStatementVersion(trx, companyId));
      await trx
        .updateTable('ingest_runs')
        .set({
          status: 'DONE',
          heartbeat_at: at(),
          events_seq: version,
          events_at: now.toISOString(),
          events_summary: events.summary ? JSON.stringify(events.summary) : null,
        })
        .where('id', '=', runId)
        .execute();
      await moveStaged(trx, runId, { banking: banking.length, cards: cards.length }, now, version);
      await finish?.(trx, version);
      // The run's rows appear under a number taken earlier (PostgreSQL): the data version changes now.
      if (reserved !== undefined) await signalChange(trx, `statements:${companyId}`);
    });
  } catch (err) {
    await undoRun(db, runId);
    throw err;
  }
  // Published: a failure from here on leaves the rest of the events to the next ingest, never undoes the rows.
  await recordRunEvents(db, runId, events.onChunk);
  // The rows are published; their staged copies are of no use (a crash here leaves them to the next ingest).
  await dropStaged(db, runId);
}

/** Undoes a run that did not finish: its staged rows and the run itself go. */
async function undoRun(db: Db, runId: string): Promise<void> {
  await dropStaged(db, runId);
  await db.deleteFrom('ingest_runs').where('id', '=', runId).where('status', '=', 'LOADING').execute();
}

/** Undoes the runs of processes that died mid-ingest, and drops what finished runs left staged. */
export async function undoAbandonedRuns(db: Db): Promise<number> {
  const cutoff = new Date(systemClock.now().getTime() - ABANDONED_RUN_MS).toISOString();
  const runs = await db
    .selectFrom('ingest_runs')
    .select('id')
    .where('status', '=', 'LOADING')
    .where('heartbeat_at', '<', cutoff)
    .execute();
  for (const run of runs) await undoRun(db, run.id);
  const staged = await runsWithStagedRows(db);
  if (staged.length > 0) {
    const done = await db
      .selectFrom('ingest_runs')
      .select('id')
      .where('id', 'in', staged)
      .where('status', '=', 'DONE')
      .execute();
    for (const run of done) await dropStaged(db, run.id);
  }
  return runs.length;
}

/** How many ingest runs there are of each status (read by the metrics at scrape time). */
export async function ingestRunsByStatus(db: Db): Promise<Array<{ status: 'LOADING' | 'DONE'; runs: number }>> {
  const rows = await db
    .selectFrom('ingest_runs')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, runs: Number(row.n) }));
}
