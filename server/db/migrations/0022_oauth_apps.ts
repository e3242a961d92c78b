// Apps acting for companies (server/areas/apps): registered OAuth clients, one-time approval codes,
// the grants a company approved, their authorization codes and refresh tokens; and, beside the API
// clients' access tokens (the auth area's), the access tokens of those grants. Every
// code and token is kept only as its SHA-256 digest (hex).
import type { Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('oauth_apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('auth_method', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text')
    .addColumn('scope', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('unused_expires_at', t.time)
    .execute();
  await db.schema
    .createTable('approval_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('scope_ceiling', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .addColumn('used_at', t.time)
    .execute();
  await db.schema
    .createTable('oauth_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('app_id', 'text', (c) => c.notNull().references('oauth_apps.id'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('resource', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('last_used_at', t.time)
    .addColumn('revoked_at', t.time)
    .execute();
  await db.schema
    .createIndex('oauth_grants_company')
    .on('oauth_grants')
    .columns(['company_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id'))
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .addColumn('used_at', t.time)
    .execute();
  await db.schema
    .createTable('oauth_refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .addColumn('used_at', t.time)
    .execute();
  await db.schema.createIndex('oauth_refresh_tokens_grant').on('oauth_refresh_tokens').column('grant_id').execute();
  await db.schema
    .createTable('grant_access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id'))
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .addColumn('revoked_at', t.time)
    .execute();
  await db.schema.createIndex('grant_access_tokens_grant').on('grant_access_tokens').column('grant_id').execute();
}
