import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('America/Sao_Paulo'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('api_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('revoked_at', t.time)
    .execute();
  await db.schema.createIndex('api_clients_company').on('api_clients').column('company_id').execute();
  await db.schema
    .createTable('access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('api_clients.id'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_tokens_client').on('access_tokens').column('client_id').execute();
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
