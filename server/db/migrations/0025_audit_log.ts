// The audit log (server/areas/audit/): who did what to a company's credentials, cards, exports and
// webhook endpoints, and which token requests were refused. Append-only: rows are written in the
// transaction of the action they record and only ever deleted by the retention purge; an UPDATE is
// refused by the database itself.
import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import { storeKind } from '../dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('audit_entries')
    // `aud_` + ULID: ordered by creation.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('action', 'text', (c) => c.notNull())
    // The API client id, or `cli` for the operator's command line.
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('ip', 'text')
    .addColumn('request_id', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    // JSON object of what else the entry says (a refusal's reason, the scopes granted); never a secret.
    .addColumn('details', 'text')
    .execute();
  await db.schema.createIndex('audit_entries_by_company').on('audit_entries').columns(['company_id', 'id']).execute();
  await db.schema
    .createIndex('audit_entries_by_action')
    .on('audit_entries')
    .columns(['company_id', 'action', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_entries_by_actor')
    .on('audit_entries')
    .columns(['company_id', 'actor', 'id'])
    .execute();
  await db.schema.createIndex('audit_entries_by_time').on('audit_entries').columns(['created_at']).execute();
  if (storeKind(db) === 'postgres') {
    await sql`create function audit_entries_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit entries are append-only'; end $$`.execute(db);
    await sql`create trigger audit_entries_no_update before update on audit_entries
      for each row execute function audit_entries_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_entries_no_update before update on audit_entries
      begin select raise(abort, 'audit entries are append-only'); end`.execute(db);
  }
}
