// Whether the database answers now, for readiness. On PostgreSQL the probe runs on a connection of
// its own, outside the pool: a pool whose connections are all taken by requests, with queries queued
// for one, is a busy process, not a database that is down, and the probe must tell the two apart. The
// connection is opened on the first probe and again after any failure (a query that did not answer
// may still hold it). On SQLite `select 1` runs on the reader connection, which never waits.
import pg from 'pg';
import { sql } from 'kysely';
import type { Db } from './database.js';

/** A trivial query through `db`. */
export const selectOne = async (db: Db): Promise<void> => void (await sql`select 1`.execute(db));

interface PostgresProbe {
  /** Resolves when the database answers `select 1` within `timeoutMs`; one probe at a time. */
  probe(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export function postgresProbe(url: string): PostgresProbe {
  let client: pg.Client | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  const drop = () => {
    const last = client;
    client = undefined;
    last?.end().catch(() => undefined);
  };
  const run = async (timeoutMs: number) => {
    if (closed) throw new Error('the store is closed');
    try {
      if (!client) {
        const next = new pg.Client({
          connectionString: url,
          application_name: 'company-finance-service:probe',
          connectionTimeoutMillis: timeoutMs,
          query_timeout: timeoutMs,
          keepAlive: true,
        });
        // A connection lost between probes fails the next one, which opens another.
        next.on('error', () => undefined);
        client = next;
        await next.connect();
      }
      await client.query('select 1');
      if (closed) drop();
    } catch (err) {
      drop();
      throw err;
    }
  };
  return {
    probe(timeoutMs) {
      running ??= run(timeoutMs).finally(() => {
        running = undefined;
      });
      return running;
    },
    async close() {
      closed = true;
      drop();
    },
  };
}
