// Queries on the company's roles.
import type { Db } from '../../../db/database.js';
import type { RoleRow } from '../tables.js';

/** A page of roles ordered by (name, id), starting after `after`; fetches one extra row to tell whether more follow. */
export async function listRoles(
  db: Db,
  companyId: string,
  page: { limit: number; after?: [string, string] },
): Promise<RoleRow[]> {
  let query = db.selectFrom('roles').selectAll().where('company_id', '=', companyId);
  if (page.after) {
    const [name, id] = page.after;
    query = query.where((eb) => eb(eb.refTuple('name', 'id'), '>', eb.tuple(name, id)));
  }
  return query
    .orderBy('name')
    .orderBy('id')
    .limit(page.limit + 1)
    .execute();
}

export async function findRole(db: Db, companyId: string, roleId: string): Promise<RoleRow | undefined> {
  return db
    .selectFrom('roles')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', roleId)
    .executeTakeFirst();
}

export async function insertRoles(db: Db, rows: RoleRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('roles').values(rows).execute();
}
