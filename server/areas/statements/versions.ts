// The statements' change order (the `…/sync` feeds, DESIGN §11): every write that changes what the
// statement lists show numbers the rows it changes with the company's next change number, in the
// write's own transaction, and the numbers of one company commit in the order they were taken:
//  - PostgreSQL: the number comes from a sequence while the write holds a per-company advisory lock,
//    which it keeps until it commits; the next writer of the company takes its number only then. No
//    row is shared between writers. The frequent writers (annotation, attachments, arrivals) take the
//    lock before their transaction begins (`statementWriteTransaction`), so a writer that waited
//    starts from a snapshot that already holds the previous one's commit: waiting never makes two
//    writers overlap, which serializable transactions would otherwise often abort as conflicting.
//    An ingest's closing transaction, too long to hold the order, reserves its number beforehand
//    and the feeds stop below it until it ends (`ingestRunNumber`, `horizon`).
//  - SQLite: writes run one at a time; the next number is the company's largest plus one.
// So a reader that has seen number n has seen every change numbered below n. Each statement row
// keeps the number of its creation (`created_seq`) and of its latest change (`change_seq`, indexed
// with the company); the company's largest is the statements' data version (the lists' and exports'
// `ETag`). Lives here, below the areas, because the directory's deletes and renames change what the
// statements show too (reclassify.ts).
import { sql, type Kysely, type Transaction } from 'kysely';
import { writeTransaction } from '../../db/transaction.js';
import type { Database } from '../../db/database.js';
import { nextChangeNumber, orderedWriteTransaction, reservedAhead } from '../../db/statement-versions.js';
import { prepared } from '../../db/prepared.js';
import { recordEvent } from '../events/public.js';
import type { Kept } from '../../db/change-signals.js';
import type { Actor } from '../../kit/handler.js';
import { systemClock } from '../../lib/clock.js';

type Db = Kysely<Database>;
type StatementTable = 'banking_transactions' | 'credit_card_transactions';
const STATEMENTS: readonly StatementTable[] = ['banking_transactions', 'credit_card_transactions'];
/**
 * A write transaction (transaction.ts) that changes the company's statement rows, in the company's
 * change order (server/db/statement-versions.ts).
 */
export const statementWriteTransaction = <T>(
  db: Db,
  companyId: string,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> => orderedWriteTransaction(db, companyId, work);

/** The company's next change number; call in the write's transaction, which then holds the company's change order until it ends. */
export const nextStatementVersion = (trx: Db, companyId: string): Promise<number> =>
  // Every process keeping the company's data version hears of the change when it commits.
  nextChangeNumber(trx, companyId, () => statementVersion(trx, companyId), `statements:${companyId}`);

/**
 * The company's statement data version, for the statements' ETags: its largest change number (rows
 * and removals), the number an unfinished ingest run holds (its rows appear when it ends, below the
 * largest maybe) and the store's history (a restored copy answers other tags however far it moved).
 */
export async function statementDataVersion(db: Db, companyId: string, kept?: Kept<string>): Promise<string> {
  const read = async () => {
    const { version, horizon: h, history } = await feedCeiling(db, companyId);
    return `${version}:${h ?? ''}:${history}`;
  };
  // Kept between requests on PostgreSQL (server/db/change-signals.ts): every change number taken is
  // signalled, a write for the company forgets it, and it lives a second at most (an ingest run that
  // died stops holding the feeds back by time alone).
  return kept ? kept.get(companyId, read, () => ({ topic: `statements:${companyId}`, owner: companyId })) : read();
}

/** What a feed page is read against: the company's largest change number, the ingest horizon, the store's history. */
export interface FeedCeiling {
  version: number;
  horizon: number | undefined;
  history: string;
}

/** The company's largest change number, its unfinished ingest run's number and the store's history, in one statement. */
export async function feedCeiling(db: Db, companyId: string): Promise<FeedCeiling> {
  const row = (await dataVersion(db, { companyId, liveSince: liveRunsSince() })).rows[0];
  return {
    version: Math.max(Number(row?.v ?? 0), Number(row?.c ?? 0), Number(row?.r ?? 0)),
    horizon: row?.h === null || row?.h === undefined ? undefined : Number(row.h),
    history: String(row?.s ?? ''),
  };
}

// One statement, prepared: it is read before every statement list, feed and export (their 304s).
type N = string | number | null;
const dataVersion = prepared((db, p: { companyId: string; liveSince: string }) => ({
  compile: () =>
    sql<{ v: N; c: N; r: N; h: N; s: N }>`select
      (select max(change_seq) from banking_transactions where company_id = ${p.companyId}) as v,
      (select max(change_seq) from credit_card_transactions where company_id = ${p.companyId}) as c,
      (select max(change_seq) from statement_removals where company_id = ${p.companyId}) as r,
      (${horizon(db, p.companyId, p.liveSince)}) as h,
      (select id from statement_history) as s`.compile(db),
}));

/** The company's largest change number (0 before any row): of its rows and of its removals. */
export async function statementVersion(db: Db, companyId: string): Promise<number> {
  const { rows } = await sql<{ v: string | number | null }>`select max(v) as v from (
      select max(change_seq) as v from banking_transactions where company_id = ${companyId}
      union all
      select max(change_seq) as v from credit_card_transactions where company_id = ${companyId}
      union all
      select max(change_seq) as v from statement_removals where company_id = ${companyId}
    ) m`.execute(db);
  return Number(rows[0]?.v ?? 0);
}

type Rows = Kysely<
  Record<StatementTable, Record<'id' | 'company_id' | 'change_seq' | 'cost_center_id' | 'custom_category_id', unknown>>
>;

/**
 * Marks the company's rows `ids` of `table` as changed: they come again in the feed. Call it last in
 * the write's transaction: on PostgreSQL the company's change order is held from here to the commit,
 * so the write waits for another writer of the company only for that last step. `columns`, the
 * rows' own change, is written by the same UPDATE (one write of each row, not two).
 */
export async function markChanged(
  trx: Db,
  table: StatementTable,
  companyId: string,
  ids: ReadonlyArray<number | string>,
  columns: Record<string, unknown> = {},
): Promise<void> {
  const version = await nextStatementVersion(trx, companyId);
  await (trx as unknown as Rows)
    .updateTable(table)
    .set({ ...columns, change_seq: version })
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * The change number of an ingest run's rows. On PostgreSQL it is reserved before the run's closing
 * transaction, in a transaction of its own that records it on the run (still LOADING): the feeds read
 * no row numbered from there on until the run is done (`horizon`), so the company's other writers
 * go on numbering and committing while the closing transaction runs, and none of their changes can be
 * read before the run's rows. On SQLite the closing transaction runs alone: its number is taken in it.
 */
export const ingestRunNumber = (
  db: Db,
  companyId: string,
  runId: string,
  heartbeatAt: string,
): Promise<number | undefined> =>
  reservedAhead(db, () =>
    writeTransaction(db, async (trx) => {
      const version = await nextStatementVersion(trx, companyId);
      await trx
        .updateTable('ingest_runs')
        .set({ change_seq: version, heartbeat_at: heartbeatAt })
        .where('id', '=', runId)
        .execute();
      return version;
    }),
  );

/** A run whose heartbeat is older died (the ingest's ABANDONED_RUN_MS): its rows will never come, it holds nothing back. */
const DEAD_RUN_MS = 10 * 60_000;

/** The first change number the feeds may not read yet: that of the company's oldest live unfinished ingest run, if any. */
export const horizon = (db: Db, companyId: string, liveSince: string = liveRunsSince()) =>
  db
    .selectFrom('ingest_runs')
    .select((eb) => eb.fn.min('change_seq').as('h'))
    .where('company_id', '=', companyId)
    // A literal, as the partial index `ingest_runs_loading` is written: compared with a bound value,
    // SQLite's planner reads the value to choose that index and so compiles the statement again at
    // every run (~60 µs, before each statement list).
    .where('status', '=', sql.lit('LOADING'))
    .where('heartbeat_at', '>', liveSince);

/**
 * The oldest heartbeat of a run still alive. Heartbeats say that a process is alive, so they are on
 * the machines' clock (`systemClock`), never a company's (a sandbox clock moved ahead would bury live runs).
 */
const liveRunsSince = () => new Date(systemClock.now().getTime() - DEAD_RUN_MS).toISOString();

/** Who changed what the rows show, for the event that announces it. */
export interface Announcement extends Actor {
  now: Date | string;
}

/**
 * Marks the company's statement rows whose `column` is one of `values` as changed (a name they show
 * was renamed, a category or cost center they carry was deleted): they come again in the feeds, and
 * one `statement.updates_available` per statement with such rows announces it (they have no event of
 * their own).
 */
export async function touchStatementRows(
  trx: Db,
  companyId: string,
  column: 'cost_center_id' | 'custom_category_id',
  values: ReadonlyArray<string | number>,
  at: Announcement,
): Promise<void> {
  if (values.length === 0) return;
  const version = await nextStatementVersion(trx, companyId);
  for (const table of STATEMENTS) {
    const result = await (trx as unknown as Rows)
      .updateTable(table)
      .set({ change_seq: version })
      .where('company_id', '=', companyId)
      .where(column, 'in', values)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) continue;
    await recordEvent(trx, at.now, {
      companyId,
      type: 'statement.updates_available',
      requestId: at.requestId,
      clientId: at.clientId,
      object: { statement: table === 'banking_transactions' ? 'banking' : 'credit-card' },
    });
  }
}
