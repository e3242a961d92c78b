// The SQLite store. WAL (readers never wait for the writer), synchronous=FULL, foreign keys.
// Several processes may share one file, so:
//  - every write transaction runs under BEGIN IMMEDIATE: it takes the write lock before its first
//    read, so two writers never both hold read snapshots and then deadlock upgrading them
//    (SQLITE_BUSY_SNAPSHOT);
//  - better-sqlite3 waits for a lock synchronously (busy_timeout), freezing the event loop, so the
//    timeout is kept tiny and a lock still busy is retried asynchronously (retry.ts, `LOCK`).
// Writes of concurrent requests share one commit (and its fsync) and reads run on a connection of
// their own: sqlite-group-commit.ts.
import SQLite from 'better-sqlite3';
import { SqliteDialect, type Driver } from 'kysely';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { withStatementCache } from './statement-cache.js';
import { GroupCommitDriver, type Connections } from './sqlite-group-commit.js';
import { LOCK, retrying } from './retry.js';

/** Synchronous wait inside SQLite per attempt: short enough not to stall other requests. */
const BUSY_TIMEOUT_MS = 20;

class GroupCommitSqliteDialect extends SqliteDialect {
  constructor(private readonly connections: Connections) {
    super({ database: connections.writer });
  }
  override createDriver(): Driver {
    return new GroupCommitDriver(this.connections);
  }
}

function open(path: string): SQLite.Database {
  const sqlite = new SQLite(path, { timeout: BUSY_TIMEOUT_MS });
  // Room for the banking indexes' hot pages (a bulk publish touches every one of them), and
  // staging tables in memory.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('temp_store = MEMORY');
  // `finance_fold`, as PostgreSQL's (migration 0020): lower case without accents, for the word
  // search's walk over a page's ordered index (dialect.ts `documentHolds`). Queries only: no
  // trigger or index uses it, so other tools can still write the file.
  sqlite.function('finance_fold', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase() : text,
  );
  return sqlite;
}

/**
 * A store we create is private to its owner: its folder 0700 when we make it, the file 0600 (SQLite
 * gives its -wal and -shm files the database file's mode). An existing file keeps its mode.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (existsSync(path)) return;
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
  }
}

export async function sqliteDialect(path: string): Promise<SqliteDialect> {
  const memory = path === ':memory:';
  if (!memory) createPrivately(path);
  const handle = open(path);
  // Switching to WAL needs a moment of exclusive access: another process may be writing.
  if (!memory) await retrying(LOCK, () => handle.pragma('journal_mode = WAL'));
  handle.pragma('synchronous = FULL');
  handle.pragma('foreign_keys = ON');
  const reader = memory ? undefined : open(path);
  return new GroupCommitSqliteDialect({
    writer: withStatementCache(handle),
    handle,
    reader: reader && withStatementCache(reader),
  });
}
