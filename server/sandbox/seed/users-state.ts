// What the demo-data seeder needs to read before writing people.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';

/** The company's name, and whether it already has roles (then it was seeded before). */
export async function seedState(
  db: Kysely<Database>,
  companyId: string,
): Promise<{ companyName: string; seeded: boolean }> {
  const company = await db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirst();
  if (!company) throw new Error(`no company ${companyId}`);
  const role = await db
    .selectFrom('roles')
    .select('id')
    .where('company_id', '=', companyId)
    .limit(1)
    .executeTakeFirst();
  return { companyName: company.name, seeded: role !== undefined };
}
