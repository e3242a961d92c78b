// The keys of an ingest run's lines (`ingested_lines`, migrations 0006 and 0037), written by the run's
// staging transactions rather than its closing one: each key is held by its run (`run_id`), and a
// line counts as ingested unless its run is still loading. So the closing transaction only checks
// that the run still holds every key of its lines.
// Two ingests of the same lines: the second finds the keys held and stops at once, unless the
// holder has stopped (no heartbeat for LINES_HELD_MS), whose keys it takes over; the holder, should
// it wake, then fails at its closing check, and no line is published twice. Taking keys over first
// updates the holder's run row, which the holder's closing transaction updates first too: on
// PostgreSQL one waits for the other and sees what it did.
import type { Db } from '../../../db/database.js';
import { chunks } from '../../../lib/chunks.js';
import { systemClock } from '../../../lib/clock.js';
import { letOtherWritersIn } from '../../../db/retry.js';

export interface LineKey {
  line_key: string;
  statement: 'banking' | 'credit-card';
}

/** A loading run without a heartbeat for this long has stopped: another ingest takes over its lines. */
export const LINES_HELD_MS = 30_000;

/** Lines another run holds (`loading`) or published since they were checked (`ingested`). */
export class LinesHeldError extends Error {
  constructor(
    readonly keys: string[],
    readonly by: 'loading' | 'ingested',
  ) {
    super(
      by === 'loading'
        ? `${keys.length} line(s) are being ingested by another run`
        : `${keys.length} line(s) were ingested by another run meanwhile`,
    );
  }
}

/** The keys among `keys` of lines ingested: stored by a run that is no longer loading. */
export async function storedKeys(db: Db, companyId: string, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const batch of chunks(keys)) {
    const rows = await db
      .selectFrom('ingested_lines as l')
      .select('l.line_key')
      .where('l.company_id', '=', companyId)
      .where('l.line_key', 'in', batch)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('ingest_runs as r')
              .select('r.id')
              .whereRef('r.id', '=', 'l.run_id')
              .where('r.status', '=', 'LOADING'),
          ),
        ),
      )
      .execute();
    rows.forEach((r) => found.add(r.line_key));
  }
  return found;
}

/** Writes a chunk of the run's keys, taking over those of stopped runs; throws LinesHeldError for the others. */
export async function stageLineKeys(
  trx: Db,
  runId: string,
  companyId: string,
  keys: LineKey[],
  ingestedAt: string,
): Promise<void> {
  for (const batch of chunks(keys)) {
    const rows = batch.map((k) => ({ ...k, company_id: companyId, ingested_at: ingestedAt, run_id: runId }));
    const written = await trx
      .insertInto('ingested_lines')
      .values(rows)
      .onConflict((oc) => oc.columns(['company_id', 'line_key']).doNothing())
      .executeTakeFirst();
    if (Number(written.numInsertedOrUpdatedRows ?? 0) < rows.length)
      await takeOver(
        trx,
        runId,
        companyId,
        batch.map((k) => k.line_key),
        ingestedAt,
      );
  }
}

async function takeOver(trx: Db, runId: string, companyId: string, keys: string[], ingestedAt: string) {
  const held = await trx
    .selectFrom('ingested_lines as l')
    .leftJoin('ingest_runs as r', 'r.id', 'l.run_id')
    .select(['l.line_key', 'l.run_id', 'r.status'])
    .where('l.company_id', '=', companyId)
    .where('l.line_key', 'in', keys)
    .where((eb) => eb.or([eb('l.run_id', 'is', null), eb('l.run_id', '<>', runId)]))
    .execute();
  const ingested = held.filter((h) => h.status !== 'LOADING').map((h) => h.line_key);
  if (ingested.length > 0) throw new LinesHeldError(ingested, 'ingested');
  const stoppedBefore = new Date(systemClock.now().getTime() - LINES_HELD_MS).toISOString();
  for (const holder of new Set(held.map((h) => h.run_id!))) {
    const lines = held.filter((h) => h.run_id === holder).map((h) => h.line_key);
    // Updating the holder's run row, as its closing transaction does first: on PostgreSQL this waits
    // for that transaction, and then finds the run no longer loading.
    const stopped = await trx
      .updateTable('ingest_runs')
      .set((eb) => ({ heartbeat_at: eb.ref('heartbeat_at') }))
      .where('id', '=', holder)
      .where('status', '=', 'LOADING')
      .where('heartbeat_at', '<', stoppedBefore)
      .executeTakeFirst();
    if (Number(stopped.numUpdatedRows) === 0) throw new LinesHeldError(lines, 'loading');
    await trx
      .updateTable('ingested_lines')
      .set({ run_id: runId, ingested_at: ingestedAt })
      .where('company_id', '=', companyId)
      .where('run_id', '=', holder)
      .where('line_key', 'in', lines)
      .execute();
  }
}

/** Throws LinesHeldError unless the run still holds the key of each of its lines: its closing transaction checks it. */
export async function checkLinesHeld(trx: Db, runId: string, lines: LineKey[]): Promise<void> {
  const { n } = await trx
    .selectFrom('ingested_lines')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('run_id', '=', runId)
    .executeTakeFirstOrThrow();
  if (Number(n) === lines.length) return;
  const held = await trx.selectFrom('ingested_lines').select('line_key').where('run_id', '=', runId).execute();
  const mine = new Set(held.map((h) => h.line_key));
  throw new LinesHeldError(
    lines.filter((l) => !mine.has(l.line_key)).map((l) => l.line_key),
    'loading',
  );
}

/** Deletes the keys of a run being undone (a loading run: a published run's keys are its lines'), a short transaction per chunk. */
export async function dropLineKeys(db: Db, runId: string): Promise<void> {
  for (;;) {
    const dropped = await db
      .deleteFrom('ingested_lines')
      .where('run_id', '=', runId)
      .where('line_key', 'in', (eb) =>
        eb.selectFrom('ingested_lines').select('line_key').where('run_id', '=', runId).limit(5_000),
      )
      .executeTakeFirst();
    if (Number(dropped.numDeletedRows) === 0) return;
    await letOtherWritersIn(db);
  }
}
