// Publishing an ingest without stalling the API and without showing half of it: rows go into the
// staging tables (store/ingest-staging.ts) in short write transactions of CHUNK rows (the API's
// writes run in between: `letOtherWritersIn`), and the run's closing transaction moves them into the statement tables
// with their balances and bill totals: readers see none of the run, then all of it. Everything else
// is written outside it, so on SQLite, where the API's writers wait for it, it holds the write lock
// for the rows' move alone: before it, with the staging chunks, the lines' keys (store/ingest-lines.ts,
// held by the run until it is done) and, on SQLite, the rows' search documents; after it, the rows'
// created events, in short transactions of their own (store/ingest-events.ts).
// Every line was checked before the first chunk, so a later failure is rare (a concurrent ingest
// taking the same credit-card id or lines, a lost connection); then the run is undone: what it wrote
// ahead and its staged rows deleted, nothing else had moved. A process that died mid-run leaves a
// LOADING run whose heartbeat stops; the next ingest undoes it first.
import { signalChange } from '../../../db/change-signals.js';
import { ulid } from 'ulid';
import { systemClock } from '../../../lib/clock.js';
import type { Db } from '../../../db/database.js';
import { writeTransaction } from '../../../db/transaction.js';
import { ingestRunNumber, nextStatementVersion } from '../versions.js';
import { CONFLICT, letOtherWritersIn, retrying } from '../../../db/retry.js';
import type { NewBankingTransaction, NewCreditCardTransaction } from '../tables.js';
import { finishPublishedRuns, recordRunEvents, type OnEventChunk } from './ingest-events.js';
import {
  bankingIdsAhead,
  cardRowidsAhead,
  dropStaged,
  dropStagedDocuments,
  moveStaged,
  runsWithStagedRows,
  stageBanking,
  stageCreditCards,
  type RowKeys,
} from './ingest-staging.js';
import { checkLinesHeld, dropLineKeys, stageLineKeys, type LineKey } from './ingest-lines.js';

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
  /** Written in the closing transaction, with the rows (removals); `version`: the rows' change number. */
  finish?: (trx: Db, version: number) => Promise<void>,
  /**
   * `lines`: the keys of the file's lines, staged with the rows; `summary` and `onChunk`: the created
   * events, recorded after the rows: the run's `statement.ingested` object, and a call after each chunk.
   */
  run: { lines?: LineKey[]; summary?: object; onChunk?: OnEventChunk } = {},
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
  const lines = run.lines ?? [];
  const keys: RowKeys = {};
  // Staging transaction `index` also writes the keys of CHUNK lines: a line another ingest holds stops
  // the run at its chunk.
  const stage = async (index: number, work: (trx: Db) => Promise<void>) => {
    await writeTransaction(db, async (trx) => {
      await stageLineKeys(trx, runId, companyId, lines.slice(index * CHUNK, (index + 1) * CHUNK), now.toISOString());
      await work(trx);
      await heartbeat(trx);
    });
    await letOtherWritersIn(db);
  };
  const bankingChunks = Math.ceil(banking.length / CHUNK);
  try {
    for (let i = 0; i < banking.length; i += CHUNK) {
      await stage(i / CHUNK, async (trx) => {
        if (i === 0) keys.banking = await bankingIdsAhead(trx, banking.length);
        await stageBanking(trx, runId, i, banking.slice(i, i + CHUNK), keys.banking);
      });
      await onProgress?.('storing', Math.min(banking.length, i + CHUNK));
    }
    for (let i = 0; i < cards.length; i += CHUNK) {
      await stage(bankingChunks + i / CHUNK, async (trx) => {
        if (i === 0) keys.cards = await cardRowidsAhead(trx, cards.length);
        await stageCreditCards(trx, runId, i, cards.slice(i, i + CHUNK), keys.cards);
      });
      await onProgress?.('storing', banking.length + Math.min(cards.length, i + CHUNK));
    }
    // Keys of lines without a row (none from a file: each of its lines is one) in transactions of their own.
    for (let index = bankingChunks + Math.ceil(cards.length / CHUNK); index * CHUNK < lines.length; index += 1)
      await stage(index, async () => undefined);
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
          events_summary: run.summary ? JSON.stringify(run.summary) : null,
        })
        .where('id', '=', runId)
        .execute();
      // A line another ingest took over while this run was silent is that ingest's now.
      await checkLinesHeld(trx, runId, lines);
      await moveStaged(trx, runId, { banking, cards }, now, version, keys);
      await finish?.(trx, version);
      // The run's rows appear under a number taken earlier (PostgreSQL): the data version changes now.
      if (reserved !== undefined) await signalChange(trx, `statements:${companyId}`);
    });
  } catch (err) {
    await undoRun(db, runId);
    throw err;
  }
  // The API's writers that waited for the closing transaction go first.
  await letOtherWritersIn(db);
  // Published: a failure from here on leaves the rest of the events to the next ingest, never undoes the rows.
  await recordRunEvents(db, runId, run.onChunk);
  // The rows are published; their staged copies are of no use (a crash here leaves them to the next ingest).
  await dropStaged(db, runId);
}

/**
 * Undoes a run that did not finish: what it wrote ahead of its rows (search documents, line keys), its
 * staged rows and the run itself go, in that order (the run, last, says what is left to undo). A run
 * whose closing transaction committed after all (a connection lost on its COMMIT) is published: only
 * its staged copies go, as after any published run.
 */
async function undoRun(db: Db, runId: string): Promise<void> {
  const run = await db.selectFrom('ingest_runs').select('status').where('id', '=', runId).executeTakeFirst();
  if (run?.status !== 'DONE') {
    await dropStagedDocuments(db, runId);
    await dropLineKeys(db, runId);
  }
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
