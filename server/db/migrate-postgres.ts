// PostgreSQL's migrations run beside a service that keeps serving (`finance migrate` ahead of a rolling
// deploy, a new replica starting among old ones), so a migration must give way to the requests rather
// than the other way round:
//  - each pending migration runs in a transaction of its own (Kysely's migrator would run them all in
//    one), so a failure undoes that migration alone and a retry runs that one again;
//  - it waits at most `lock_timeout` for each lock: a migration queued for a table lock holds up every
//    request that comes after it on that table, for as long as it waits;
//  - a lock timeout, a deadlock with the service's writes or a serialization failure rolled the
//    migration back whole: it runs again after a short pause, each attempt waiting twice as long for
//    its locks, so a busy table is still migrated in the end;
//  - a migration that exports `outsideTransaction` runs without one (CREATE INDEX CONCURRENTLY) and
//    without a lock timeout (it holds no lock that stops writes); its steps must be safe to run again;
//  - processes that migrate at once take turns on Kysely's migration lock (older builds lock with it),
//    polled with pg_try_advisory_lock: one waiting in pg_advisory_lock holds a snapshot, which a CREATE
//    INDEX CONCURRENTLY of the process migrating would wait for while it waits for the lock (a deadlock).
// The migrations are recorded in Kysely's tables, as its migrator does (SQLite's still run through it);
// run here rather than through it, each migration costs its own statements and no more (its migrator
// reads the whole catalogue twice per call: +1.5 s on a new database).
import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  MIGRATION_LOCK_ID,
  sql,
  type Kysely,
  type Migration,
} from 'kysely';
import { warnLine } from '../lib/warn.js';
import { backoff } from './errors.js';

export interface PostgresMigrateOptions {
  /** How long a migration's first attempt waits for each lock, in ms (default 1000); doubled per retry. */
  lockTimeoutMs?: number;
}

const DEFAULT_LOCK_TIMEOUT_MS = 1_000;
const MAX_LOCK_TIMEOUT_MS = 5_000;
const ATTEMPTS = 10;
/** Kysely's migrator's advisory lock (PostgresAdapter): builds that migrate through it take turns with this one. */
const LOCK_KEY = 3_853_314_791_062_309_107n;
const LOCK_POLL_MS = 200;

/** 40P01 deadlock_detected, 40001 serialization_failure, 55P03 lock_not_available (lock_timeout). */
const GAVE_WAY = new Set(['40P01', '40001', '55P03']);
const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code;

const isOutsideTransaction = (migration: Migration) =>
  (migration as Migration & { outsideTransaction?: boolean }).outsideTransaction === true;

/** Runs the pending migrations of `provided` one at a time, on one connection (see the top); their names. */
export async function migratePostgres(
  db: Kysely<any>,
  provided: Record<string, Migration>,
  options: PostgresMigrateOptions = {},
): Promise<string[]> {
  const firstTimeout = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  return db.connection().execute(async (conn) => {
    await takeTurn(conn);
    const ran: string[] = [];
    try {
      await ensureMigrationTables(conn);
      const executed = new Set(
        (await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(conn)).rows.map(
          (row) => row.name,
        ),
      );
      for (const name of Object.keys(provided).sort()) {
        if (executed.has(name)) continue;
        await runOne(conn, name, provided[name]!, firstTimeout);
        ran.push(name);
      }
      return ran;
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
  });
}

async function takeTurn(conn: Kysely<any>): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${LOCK_KEY}) as locked`.execute(conn);
    if (rows[0]?.locked) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

/**
 * Kysely's migration table and lock table, as its migrator makes them (an older build reads them). Its
 * migrator makes them before it takes the lock: one made meanwhile is there all the same (42P07
 * duplicate_table, or 23505 when both creations met in the catalogue).
 */
async function ensureMigrationTables(conn: Kysely<any>): Promise<void> {
  const made = (err: unknown) => {
    if (codeOf(err) !== '42P07' && codeOf(err) !== '23505') throw err;
  };
  await sql`create table if not exists ${sql.table(DEFAULT_MIGRATION_TABLE)} (
    name varchar(255) not null primary key, "timestamp" varchar(255) not null)`
    .execute(conn)
    .catch(made);
  await sql`create table if not exists ${sql.table(DEFAULT_MIGRATION_LOCK_TABLE)} (
    id varchar(255) not null primary key, is_locked integer not null default 0)`
    .execute(conn)
    .catch(made);
  await sql`insert into ${sql.table(DEFAULT_MIGRATION_LOCK_TABLE)} (id, is_locked)
    values (${MIGRATION_LOCK_ID}, 0) on conflict do nothing`.execute(conn);
}

/** One migration and its record, in one transaction unless it runs outside one; again when it gave way. */
async function runOne(conn: Kysely<any>, name: string, migration: Migration, firstTimeout: number): Promise<void> {
  const record = (db: Kysely<any>) =>
    sql`insert into ${sql.table(DEFAULT_MIGRATION_TABLE)} (name, "timestamp")
      values (${name}, ${new Date().toISOString()})`.execute(db);
  for (let attempt = 0; ; attempt += 1) {
    const timeout = Math.min(firstTimeout * 2 ** attempt, Math.max(firstTimeout, MAX_LOCK_TIMEOUT_MS));
    try {
      if (isOutsideTransaction(migration)) {
        await migration.up(conn);
        await record(conn);
      } else {
        await conn.transaction().execute(async (trx) => {
          await sql`select set_config('lock_timeout', ${`${timeout}ms`}, true)`.execute(trx);
          await migration.up(trx);
          await record(trx);
        });
      }
      return;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (!GAVE_WAY.has(codeOf(err) as string)) throw new Error(`Migration ${name} failed: ${reason}`);
      if (attempt + 1 >= ATTEMPTS)
        throw new Error(
          `Migration ${name} failed: ${reason} (gave up after ${ATTEMPTS} attempts: a transaction kept a lock it needs; see pg_stat_activity, or run finance migrate again with a longer --lock-timeout)`,
        );
      warnLine(
        `migration ${name} gave way to the running service (${reason}); rolled back, attempt ${attempt + 2} of ${ATTEMPTS} follows`,
      );
      await backoff(attempt, 100, 1_000);
    }
  }
}
