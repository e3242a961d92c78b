// The SQLite store. WAL (readers never wait for the writer), synchronous=FULL, foreign keys.
// Several processes may share one file, so:
//  - every transaction begins IMMEDIATE: it takes the write lock before its first read, so two
//    writers never both hold read snapshots and then deadlock upgrading them (SQLITE_BUSY_SNAPSHOT);
//  - better-sqlite3 waits for a lock synchronously (busy_timeout), freezing the event loop, so the
//    timeout is kept tiny and a lock still busy is retried asynchronously with backoff; after
//    LOCK_WAIT_MS the caller gets StoreBusyError (503 with Retry-After).
import SQLite from 'better-sqlite3';
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type QueryResult, type Driver, type SqliteDatabase } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { backoff, isSqliteBusy, StoreBusyError } from './errors.js';
import { withStatementCache } from './statement-cache.js';

/** Synchronous wait inside SQLite per attempt: short enough not to stall other requests. */
const BUSY_TIMEOUT_MS = 20;
/** Total time a statement or BEGIN keeps retrying a busy lock before answering 503. */
const LOCK_WAIT_MS = 4_000;

async function retryBusy<T>(run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await run();
    } catch (err) {
      if (!isSqliteBusy(err)) throw err;
      if (Date.now() >= deadline) throw new StoreBusyError(err);
      await backoff(attempt, 2, 50);
    }
  }
}

/** Statements outside a transaction retry a busy lock; inside one, BEGIN IMMEDIATE already holds it. */
class BusyAwareConnection implements DatabaseConnection {
  inTransaction = false;
  constructor(readonly inner: DatabaseConnection) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.inTransaction ? this.inner.executeQuery<R>(query) : retryBusy(() => this.inner.executeQuery<R>(query));
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  private wrapped?: BusyAwareConnection;
  override async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await super.acquireConnection();
    if (this.wrapped === undefined) this.wrapped = new BusyAwareConnection(inner);
    return this.wrapped;
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as BusyAwareConnection;
    await retryBusy(() => c.inner.executeQuery(CompiledQuery.raw('begin immediate')));
    c.inTransaction = true;
  }
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.ending(connection, (c) => super.commitTransaction(c));
  }
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.ending(connection, (c) => super.rollbackTransaction(c));
  }
  /** COMMIT or ROLLBACK; either way the connection is out of its transaction afterwards. */
  private async ending(connection: DatabaseConnection, end: (c: BusyAwareConnection) => Promise<void>): Promise<void> {
    const c = connection as BusyAwareConnection;
    try {
      await end(c);
    } finally {
      c.inTransaction = false;
    }
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly database: SqliteDatabase) {
    super({ database });
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver({ database: this.database });
  }
}

export async function sqliteDialect(path: string): Promise<SqliteDialect> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path, { timeout: BUSY_TIMEOUT_MS });
  // Switching to WAL needs a moment of exclusive access: another process may be writing.
  if (path !== ':memory:') await retryBusy(async () => sqlite.pragma('journal_mode = WAL'));
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // Room for the banking indexes' hot pages (a bulk publish touches every one of them), and
  // staging tables in memory.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('temp_store = MEMORY');
  return new ImmediateSqliteDialect(withStatementCache(sqlite));
}
