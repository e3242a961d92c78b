// Token lookups kept between requests (server/db/change-signals.ts) are forgotten by every process the
// moment a token, its API client or its company changes, whatever made the change (the API, the CLI,
// a later migration): PostgreSQL signals `tokens` at the commit of any statement that updates or
// deletes their rows. SQLite keeps nothing: no triggers there.
import { sql, type Kysely } from 'kysely';
import { storeKind } from '../dialect.js';

const TABLES = ['access_tokens', 'api_clients', 'companies'];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (storeKind(db) !== 'postgres') return;
  await sql`create function finance_signal_tokens() returns trigger language plpgsql as $$
    begin
      perform pg_notify('finance_changes', 'tokens');
      return null;
    end $$`.execute(db);
  for (const table of TABLES)
    await sql`create trigger ${sql.id(`${table}_signal_tokens`)} after update or delete on ${sql.table(table)}
      for each statement execute function finance_signal_tokens()`.execute(db);
}
