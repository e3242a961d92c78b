// better-sqlite3 behind Kysely, with each SQL text prepared once. Kysely's SQLite driver calls
// `prepare` for every query it runs; preparing costs more than running a small indexed query, and
// Kysely compiles the same SQL text for the same query shape, so the statement is kept and reused.
// Bounded (least recently used first out) because texts vary with the length of `in (…)` lists.
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const STATEMENT_CACHE_SIZE = 500;

export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (sql: string): SqliteStatement => {
      const cached = statements.get(sql);
      // A statement still being iterated (a streamed query) cannot run again: prepare another.
      if (cached && !cached.busy) {
        statements.delete(sql);
        statements.set(sql, cached);
        return cached as unknown as SqliteStatement;
      }
      const statement = sqlite.prepare(sql);
      if (!cached) {
        statements.set(sql, statement);
        if (statements.size > size) statements.delete(statements.keys().next().value!);
      }
      return statement as unknown as SqliteStatement;
    },
  };
}
