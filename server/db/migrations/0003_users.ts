import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('profile', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addCheckConstraint('roles_profile', sql`profile in ('MAIN', 'RESPONSIBLE', 'MANAGER', 'EMPLOYEE')`)
    .execute();
  // Serves the listing order (name, id) and keeps names unique within a company.
  await db.schema.createIndex('roles_company_name').on('roles').columns(['company_id', 'name', 'id']).execute();
  await db.schema
    .createIndex('roles_company_name_unique')
    .on('roles')
    .columns(['company_id', 'name'])
    .unique()
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_normalized', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addColumn('deleted_at', t.time)
    .addCheckConstraint('users_active', sql`active in (0, 1)`)
    .execute();
  // One live user per address and company; also the keyset order of the listing (email).
  await db.schema
    .createIndex('users_company_email')
    .on('users')
    .columns(['company_id', 'email_normalized'])
    .unique()
    .where(sql.ref('deleted_at'), 'is', null)
    .execute();
  await db.schema.createIndex('users_role').on('users').column('role_id').execute();

  await db.schema
    .createTable('invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_normalized', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .addColumn('accepted_at', t.time)
    .addColumn('user_id', 'text', (c) => c.references('users.id'))
    .addCheckConstraint('invites_status', sql`status in ('PENDING', 'ACCEPTED', 'EXPIRED')`)
    .execute();
  // At most one pending invite per address and company, even under concurrent requests.
  await db.schema
    .createIndex('invites_company_email_pending')
    .on('invites')
    .columns(['company_id', 'email_normalized'])
    .unique()
    .where(sql.ref('status'), '=', 'PENDING')
    .execute();
  await db.schema
    .createIndex('invites_company_created')
    .on('invites')
    .columns(['company_id', 'created_at', 'id'])
    .execute();
}
