// Opens the store: SQLite (a file path, or `:memory:`) or PostgreSQL (a `postgres://…` URL), migrated
// to the latest version. The kind is decided here, once, and the handle carries everything the rest of
// the service needs from it; nothing outside this folder asks which database it is. sqlite.ts and
// postgres.ts open them, dialect.ts and column-types.ts hold the few differences in SQL, transaction.ts
// and retry.ts make writes behave the same under concurrency, errors.ts classifies driver errors.
import { warnLine } from '../lib/warn.js';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Kysely, sql, type Transaction } from 'kysely';
import { migrate, type Db } from './database.js';
import type { Database } from './database.js';
import type { StoreKind } from './dialect.js';
import { isStoreBusy } from './errors.js';
import { sqliteDialect } from './sqlite.js';
import { postgresDialect, SixtyFourBitIntegers } from './postgres.js';
import { writeTransaction } from './transaction.js';
import { isPostgresUrl, locationProblem, withoutPassword } from './location.js';
import { listenForChanges, type ChangeSignals } from './change-signals.js';
import { postgresProbe, selectOne } from './probe.js';

export interface Store {
  readonly db: Db;
  readonly kind: StoreKind;
  /** For messages: the file path, or the URL without its password. */
  readonly description: string;
  /** Replicas of the service may share it: state that changes an answer must live in it (or Redis). */
  readonly shared: boolean;
  /** Attachment files by default: beside a SQLite file; none on PostgreSQL (kept in the database). */
  readonly filesDir: string;
  writeTransaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /** Locks or serialization conflicts that outlasted their retries: 503 with Retry-After. */
  isBusy(err: unknown): boolean;
  /**
   * Resolves when the database answers a trivial query within `timeoutMs` (readiness): on PostgreSQL
   * on a connection of its own, so a pool busy with requests is not taken for a database that is down.
   */
  probe(timeoutMs: number): Promise<void>;
  /**
   * Where processes sharing the store hear each other's changes (PostgreSQL's LISTEN connection,
   * change-signals.ts): what a process keeps between requests relies on it. Absent where nothing needs
   * them (SQLite's reads are in-process and cheap: nothing is kept there).
   */
  readonly changeSignals?: () => Promise<ChangeSignals>;
  close(): Promise<void>;
}

/** A SQLite file that is not there, opened with `mustExist`. */
export class StoreMissingError extends Error {
  constructor(readonly location: string) {
    super(`no database at ${location}`);
    this.name = 'StoreMissingError';
  }
}

interface OpenOptions {
  /** Run pending migrations (default true). */
  migrate?: boolean;
  /** Fail with StoreMissingError instead of creating a SQLite file that is not there. */
  mustExist?: boolean;
}

export { describeLocation, isPostgresUrl } from './location.js';

export async function openStore(location: string, options: OpenOptions = {}): Promise<Store> {
  // Never a SQLite file named `postgress://…`, never the migrations in a server's default database.
  const problem = locationProblem(location);
  if (problem) throw new Error(`the database location ${withoutPassword(location)} ${problem}`);
  const kind: StoreKind = isPostgresUrl(location) ? 'postgres' : 'sqlite';
  const memory = location === ':memory:';
  if (kind === 'sqlite' && options.mustExist && !memory && !existsSync(location)) throw new StoreMissingError(location);
  const db =
    kind === 'postgres'
      ? new Kysely<Database>({ dialect: postgresDialect(location).dialect, plugins: [new SixtyFourBitIntegers()] })
      : new Kysely<Database>({ dialect: await sqliteDialect(location) });
  if (options.migrate !== false) {
    try {
      await migrate(db);
    } catch (err) {
      await db.destroy();
      throw err;
    }
  }
  if (kind === 'postgres') await warnUnlessByteOrder(db);
  // Its connection is opened by the first probe: a command that never probes opens none.
  const prober = kind === 'postgres' ? postgresProbe(location) : undefined;
  return {
    db,
    kind,
    description: kind === 'postgres' ? withoutPassword(location) : location,
    shared: kind === 'postgres',
    filesDir: kind === 'postgres' ? '' : join(memory ? './data' : dirname(location), 'files'),
    writeTransaction: (work) => writeTransaction(db, work),
    isBusy: isStoreBusy,
    probe: prober ? (timeoutMs) => prober.probe(timeoutMs) : () => selectOne(db),
    ...(kind === 'postgres' ? { changeSignals: () => listenForChanges(location) } : {}),
    close: async () => {
      await prober?.close();
      await db.destroy();
    },
  };
}

/** Names and keys sort byte-wise on SQLite; PostgreSQL does too only under a C collation. */
async function warnUnlessByteOrder(db: Db): Promise<void> {
  const { rows } = await sql<{
    collation: string;
  }>`select datcollate as collation from pg_database where datname = current_database()`.execute(db);
  const collation = rows[0]?.collation ?? '';
  if (!/^(C|POSIX|C\.UTF-?8)$/i.test(collation)) {
    warnLine(`the database collation is ${collation}; create it with LC_COLLATE 'C.UTF-8' so lists sort as on SQLite`);
  }
}
