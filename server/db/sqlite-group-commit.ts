// The SQLite driver behind Kysely: group commit on one writer connection, reads on another.
//
// With synchronous=FULL every COMMIT waits for an fsync, and better-sqlite3 waits synchronously, so
// one commit per request stalls the whole process for the disk. Here the writes of concurrent
// requests share a commit:
//  - the writer holds one outer transaction (BEGIN IMMEDIATE) at a time, the group; each write
//    transaction is a SAVEPOINT inside it, run one at a time under a FIFO lock;
//  - a transaction that succeeds releases its savepoint, frees the lock and waits: its
//    `commitTransaction` resolves only once the group's COMMIT has returned (fsync included), so a
//    request is answered only after its write is durable, as before;
//  - the group commits when the transactions that queued while it was open have run (the commit
//    takes its turn in the same FIFO lock, scheduled once per group with setImmediate);
//  - a transaction that fails rolls back to its savepoint; the others in the group still commit.
//    If SQLite itself abandoned the outer transaction (disk full, I/O error) or the COMMIT fails,
//    every transaction of the group fails with that error: none was answered as done.
// A statement outside a transaction that writes is a group member of its own (one statement).
// A read-only statement outside a transaction runs on the reader connection, which sees only
// committed data (WAL), so nobody reads what a group has not made durable yet and reads never wait
// for the writer's lock. An in-memory database has a single connection: reads take the lock too.
import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type SqliteDatabase } from 'kysely';
import { StoreBusyError } from './errors.js';
import { LOCK, retrying } from './retry.js';
import { readRows } from './sqlite-rows.js';

/** First come, first served: the group's COMMIT must not be overtaken forever by new transactions. */
class FifoLock {
  private held = false;
  private readonly waiting: Array<() => void> = [];
  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

/** Runs a compiled query the way Kysely's own SQLite connection does (rows: sqlite-rows.ts). */
function run(db: SqliteDatabase, { sql, parameters }: CompiledQuery): QueryResult<any> {
  return runStatement(db.prepare(sql) as unknown as SQLite.Statement, parameters);
}

function runStatement(statement: SQLite.Statement, parameters: readonly unknown[]): QueryResult<any> {
  if (statement.reader) return { rows: readRows(statement, parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

const raw = (sql: string) => CompiledQuery.raw(sql);
const MEMBER = 'group_member';

interface Group {
  /** Transactions released into the group, waiting for its COMMIT. */
  members: number;
  committed: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface Connections {
  /** The writer (a statement cache over `handle`). */
  writer: SqliteDatabase;
  handle: SQLite.Database;
  /** Absent for an in-memory database. */
  reader?: SqliteDatabase;
}

export class GroupCommitDriver implements Driver {
  private readonly lock = new FifoLock();
  private group?: Group;

  constructor(private readonly connections: Connections) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Lease).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Lease).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).rollback();
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(raw(`rollback to "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(raw(`release "${name}"`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).release();
  }

  /** Commits the open group, then closes; whatever still waits for the lock then fails on the closed connection. */
  async destroy(): Promise<void> {
    await this.lock.acquire();
    try {
      if (this.group) this.commitGroup();
    } finally {
      this.connections.reader?.close();
      this.connections.writer.close();
      this.lock.release();
    }
  }

  // --- used by Lease -------------------------------------------------------------------------

  get reader() {
    return this.connections.reader;
  }

  writeNow(query: CompiledQuery): QueryResult<any> {
    return run(this.connections.writer, query);
  }

  acquireLock(): Promise<void> {
    return this.lock.acquire();
  }

  releaseLock(): void {
    this.lock.release();
  }

  /** Under the lock, inside a member: the group it belongs to (it fails if SQLite abandoned it). */
  currentGroup(): Group {
    const group = this.group;
    if (!group || !this.connections.handle.inTransaction) {
      const err = new Error('The transaction was rolled back by the database');
      if (group) this.failGroup(err);
      throw new StoreBusyError(err);
    }
    return group;
  }

  /** Under the lock: the open group, or a new one (BEGIN IMMEDIATE, retried while another process writes). */
  async openGroup(): Promise<Group> {
    if (this.group && this.connections.handle.inTransaction) return this.group;
    if (this.group) this.failGroup(new Error('The group transaction ended unexpectedly'));
    await retrying(LOCK, () => run(this.connections.writer, raw('begin immediate')));
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const committed = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A member's own catch handles a failure; this one keeps an unobserved group from crashing.
    committed.catch(() => undefined);
    this.group = { members: 0, committed, resolve, reject };
    return this.group;
  }

  /** Under the lock: a member's savepoint released into the group; the COMMIT is scheduled with the first. */
  joined(group: Group): Promise<void> {
    group.members += 1;
    if (group.members === 1) setImmediate(() => void this.flush(group));
    return group.committed;
  }

  /**
   * Under the lock, after a member's savepoint failed: if SQLite abandoned the outer transaction, the
   * whole group failed; a group nobody joined is simply rolled back.
   */
  abandoned(err: unknown): void {
    const group = this.group;
    if (!group) return;
    if (!this.connections.handle.inTransaction) this.failGroup(err);
    else if (group.members === 0) {
      this.group = undefined;
      run(this.connections.writer, raw('rollback'));
    }
  }

  private async flush(group: Group): Promise<void> {
    await this.lock.acquire();
    try {
      if (this.group === group) this.commitGroup();
    } finally {
      this.lock.release();
    }
  }

  /** Under the lock. */
  private commitGroup(): void {
    const group = this.group!;
    try {
      run(this.connections.writer, raw('commit'));
      this.group = undefined;
      group.resolve();
    } catch (err) {
      this.failGroup(err);
    }
  }

  private failGroup(err: unknown): void {
    const group = this.group!;
    this.group = undefined;
    try {
      if (this.connections.handle.inTransaction) run(this.connections.writer, raw('rollback'));
    } finally {
      // Not the caller's fault and nothing was answered as done: 503, retry.
      group.reject(err instanceof StoreBusyError ? err : new StoreBusyError(err));
    }
  }
}

/** One acquisition of the driver by Kysely: a transaction, or one statement. */
class Lease implements DatabaseConnection {
  private state: 'idle' | 'transaction' | 'done' = 'idle';
  private holdsLock = false;

  constructor(private readonly driver: GroupCommitDriver) {}

  async begin(): Promise<void> {
    await this.lock();
    await this.driver.openGroup();
    this.driver.writeNow(raw(`savepoint ${MEMBER}`));
    this.state = 'transaction';
  }

  async commit(): Promise<void> {
    const group = this.driver.currentGroup();
    this.driver.writeNow(raw(`release ${MEMBER}`));
    this.state = 'done';
    const committed = this.driver.joined(group);
    this.unlock();
    await committed;
  }

  rollback(): void {
    if (this.state !== 'transaction') return;
    this.state = 'done';
    this.undoMember(undefined);
  }

  release(): void {
    this.unlock();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.state === 'transaction') return this.driver.writeNow(query);
    const reader = this.driver.reader;
    if (reader) {
      const statement = reader.prepare(query.sql) as unknown as SQLite.Statement;
      if (statement.readonly) return retrying(LOCK, () => runStatement(statement, query.parameters));
      return this.writeAlone(query);
    }
    // In memory there is one connection: a read waits for the lock so it sees no transaction half-done.
    if (isReadOnly(query)) {
      await this.lock();
      try {
        return this.driver.writeNow(query);
      } finally {
        this.unlock();
      }
    }
    return this.writeAlone(query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(query);
    for (const row of rows) yield { rows: [row] };
  }

  /** A write outside any transaction: a group member of one statement. */
  private async writeAlone<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    await this.begin();
    let result: QueryResult<R>;
    try {
      result = this.driver.writeNow(query);
    } catch (err) {
      this.state = 'done';
      this.undoMember(err);
      this.unlock();
      throw err;
    }
    await this.commit();
    return result;
  }

  private undoMember(err: unknown): void {
    try {
      this.driver.writeNow(raw(`rollback to ${MEMBER}`));
      this.driver.writeNow(raw(`release ${MEMBER}`));
    } catch {
      // The outer transaction is gone with the savepoint: handled below.
    }
    this.driver.abandoned(err ?? new Error('A transaction of the group failed and took the group with it'));
  }

  private async lock(): Promise<void> {
    if (this.holdsLock) return;
    await this.driver.acquireLock();
    this.holdsLock = true;
  }

  private unlock(): void {
    if (!this.holdsLock) return;
    this.holdsLock = false;
    this.driver.releaseLock();
  }
}

const isReadOnly = (query: CompiledQuery) => query.query.kind === 'SelectQueryNode';
