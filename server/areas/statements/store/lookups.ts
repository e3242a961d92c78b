// Small lookups the statement handlers need from other areas' tables.
import type { Db } from '../../../db/database.js';

/** The company's users (deleted ones included: their transactions still name them) with this address. */
export async function userIdsByEmail(db: Db, companyId: string, email: string): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', companyId)
    .where('email_normalized', '=', email.trim().toLowerCase())
    .execute();
  return rows.map((r) => r.id);
}
