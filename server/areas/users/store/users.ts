// Queries on the company's users. Deleted users (deleted_at set) are invisible to every query here.
import type { Db } from '../../../db/database.js';
import type { RoleProfile, UserRow } from '../tables.js';

/** A live user with its role. */
export interface UserView {
  id: string;
  email: string;
  email_normalized: string;
  name: string;
  phone: string | null;
  active: number;
  role_id: string;
  role_name: string;
  role_profile: RoleProfile;
}

const liveUsers = (db: Db, companyId: string) =>
  db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select([
      'users.id',
      'users.email',
      'users.email_normalized',
      'users.name',
      'users.phone',
      'users.active',
      'users.role_id',
      'roles.name as role_name',
      'roles.profile as role_profile',
    ])
    .where('users.company_id', '=', companyId)
    .where('users.deleted_at', 'is', null);

/** A page ordered by normalized email (unique among live users), after `afterEmail`; one extra row tells whether more follow. */
export async function listUsers(
  db: Db,
  companyId: string,
  page: { limit: number; email?: string; afterEmail?: string },
): Promise<UserView[]> {
  let query = liveUsers(db, companyId);
  if (page.email !== undefined) query = query.where('users.email_normalized', '=', page.email);
  if (page.afterEmail !== undefined) query = query.where('users.email_normalized', '>', page.afterEmail);
  return query
    .orderBy('users.email_normalized')
    .limit(page.limit + 1)
    .execute();
}

export async function findUser(db: Db, companyId: string, userId: string): Promise<UserView | undefined> {
  return liveUsers(db, companyId).where('users.id', '=', userId).executeTakeFirst();
}

export async function findUserByEmail(
  db: Db,
  companyId: string,
  emailNormalized: string,
): Promise<UserView | undefined> {
  return liveUsers(db, companyId).where('users.email_normalized', '=', emailNormalized).executeTakeFirst();
}

/** Active, live users whose role has the RESPONSIBLE profile: the company's administrators. */
export async function countActiveAdministrators(db: Db, companyId: string): Promise<number> {
  const row = await liveUsers(db, companyId)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('users.active', '=', 1)
    .where('roles.profile', '=', 'RESPONSIBLE')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateUser(
  db: Db,
  companyId: string,
  userId: string,
  changes: { name?: string; role_id?: string; updated_at: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .execute();
}

export async function softDeleteUser(db: Db, companyId: string, userId: string, at: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ deleted_at: at, updated_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .execute();
}

export async function insertUsers(db: Db, rows: UserRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('users').values(rows).execute();
}
