// A store kept busy by others answers 503 with Retry-After, never 500, and changes nothing:
// on SQLite a write lock held by another process past the wait; on PostgreSQL a transaction that
// keeps losing serialization conflicts past its retries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { startTestServer, type TestServer } from './support/server.js';
import { freshDatabase, onPostgres } from './support/database.js';
import { writeTransaction } from '../server/db/transaction.js';
import { StoreBusyError } from '../server/db/errors.js';

let dir: string;
let dbPath: string;
let server: TestServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'store-busy-'));
  dbPath = await freshDatabase(dir);
  server = await startTestServer({ dbPath });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a busy store', () => {
  it.skipIf(onPostgres)(
    'when another process holds the SQLite write lock throughout, then a write answers 503 with Retry-After and the lock holder is undisturbed',
    async () => {
      const acme = await server.newCompany();
      const other = new SQLite(dbPath);
      other.exec('BEGIN IMMEDIATE');
      try {
        const { response, error } = await acme.api.POST('/suppliers/v1/suppliers', {
          body: { name: 'Papelaria Central' },
        });
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('1');
        expect(error).toMatchObject({ error: 'Service Unavailable', code: 503 });
        // Reads still answer while the lock is held (WAL).
        expect((await acme.api.GET('/suppliers/v1/suppliers')).response.status).toBe(200);
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
      // Once released, the same write goes through: nothing was half-written.
      expect(
        (await acme.api.POST('/suppliers/v1/suppliers', { body: { name: 'Papelaria Central' } })).response.status,
      ).toBe(201);
    },
    30_000,
  );

  it.skipIf(!onPostgres)(
    'when a PostgreSQL transaction meets a serialization failure once, then it is run again and succeeds; when always, then StoreBusyError (503)',
    async () => {
      let calls = 0;
      const conflict = () => Object.assign(new Error('could not serialize access'), { code: '40001' });
      const once = await writeTransaction(server.db, async () => {
        calls += 1;
        if (calls === 1) throw conflict();
        return 'done';
      });
      expect([once, calls]).toEqual(['done', 2]);
      const always = await writeTransaction(server.db, async () => {
        throw conflict();
      }).catch((e: unknown) => e);
      expect(always).toBeInstanceOf(StoreBusyError);
    },
    30_000,
  );
});
