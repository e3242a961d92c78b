// SQLite rows read as arrays and built into objects (server/db/sqlite-rows.ts) are the objects
// better-sqlite3 itself would return: same keys in the same order, same values and types.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { readRows } from '../server/db/sqlite-rows.js';
import { onPostgres } from './support/database.js';

const own = (db: SQLite.Database, sql: string, ...params: unknown[]) => db.prepare(sql).all(...params);

describe.skipIf(onPostgres)('rows of a SQLite statement', () => {
  it("when columns have every type, nulls, aliases and a repeated name, then the objects equal better-sqlite3's, key order included", () => {
    // A bare connection, not the store: the rows' building is compared with better-sqlite3's own.
    const db = new SQLite(':memory:');
    db.exec(`create table t (id integer primary key, name text, amount real, data blob, n integer);
      insert into t values (1, 'Ana', 19.99, x'00ff', null), (2, 'Bo', null, null, 9007199254740991);`);
    for (const sql of [
      'select * from t order by id',
      'select id, name as id, amount, n from t order by id',
      'select a.*, b.name from t a join t b on b.id = 3 - a.id order by a.id',
      'select 1 as "__proto__", \'x\' as y',
      'select count(*) as n from t where id > ?',
    ]) {
      const params = sql.includes('?') ? [0] : [];
      const expected = own(db, sql, ...params);
      const rows = readRows(db.prepare(sql), params);
      expect(rows).toEqual(expected);
      expect(rows.map((r) => Object.keys(r))).toEqual(expected.map((r) => Object.keys(r as object)));
      expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    }
  });

  it('when another connection adds a column, then a kept statement of `select *` returns it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlite-rows-'));
    try {
      const file = join(dir, 'x.sqlite');
      const db = new SQLite(file);
      db.exec("create table t (id integer primary key, name text); insert into t values (1, 'Ana');");
      const statement = db.prepare('select * from t');
      expect(readRows(statement, [])).toEqual([{ id: 1, name: 'Ana' }]);
      const other = new SQLite(file);
      other.exec("alter table t add column city text default 'Recife'");
      other.close();
      expect(readRows(statement, [])).toEqual([{ id: 1, name: 'Ana', city: 'Recife' }]);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
