// The company's IANA time zone: calendar dates of its statements, bills and cards are days in it
// (server/lib/time.ts). Authenticated requests carry it in `auth.timeZone`; this lookup serves
// the callers without a token (signed URLs) and the command line.
import type { Db } from './database.js';

/** The time zone of the company, or undefined when there is no such company. */
export async function companyTimeZone(db: Db, companyId: string): Promise<string | undefined> {
  const row = await db.selectFrom('companies').select('time_zone').where('id', '=', companyId).executeTakeFirst();
  return row?.time_zone;
}
