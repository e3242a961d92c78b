// The company's IANA time zone: calendar dates of its statements, bills and cards are days in it
// (server/lib/time.ts). Authenticated requests carry it in `auth.timeZone`; these lookups of the
// companies table (the auth area's) serve the callers without a token (signed URLs: a receipt also
// shows the company's name) and the command line.
import type { Db } from '../../db/database.js';

/** The time zone of the company, or undefined when there is no such company. */
export async function companyTimeZone(db: Db, companyId: string): Promise<string | undefined> {
  const row = await db.selectFrom('companies').select('time_zone').where('id', '=', companyId).executeTakeFirst();
  return row?.time_zone;
}

/** The company's name and time zone (what a receipt shows of it), or undefined when there is no such company. */
export async function companyNameAndZone(
  db: Db,
  companyId: string,
): Promise<{ name: string; timeZone: string } | undefined> {
  const row = await db
    .selectFrom('companies')
    .select(['name', 'time_zone'])
    .where('id', '=', companyId)
    .executeTakeFirst();
  return row && { name: row.name, timeZone: row.time_zone };
}
