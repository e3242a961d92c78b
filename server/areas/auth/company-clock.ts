// The company's clock (sandbox test clocks): wall time plus an offset stored on the company, so every
// process, replica and worker reads the same instant. Business rules read it; security clocks
// (tokens, signed URLs, idempotency retention, rate limits, webhook retries) stay on wall time.
// Authenticated requests carry it as `auth.companyClock`; this module serves the callers without
// a token (the command line, housekeeping) and the sandbox that moves it.
import { offsetClock, type Clock } from '../../lib/clock.js';
import { chunks } from '../../lib/chunks.js';
import type { Db } from '../../db/database.js';

/** How far ahead of wall time the company's clock runs (0 when never moved or no such company). */
export async function clockOffset(db: Db, companyId: string): Promise<number> {
  const row = await db.selectFrom('companies').select('clock_offset_ms').where('id', '=', companyId).executeTakeFirst();
  return Number(row?.clock_offset_ms ?? 0);
}

/** The largest offset of the company clocks (of `companyId` alone when given): how far ahead the furthest runs. */
export async function largestClockOffset(db: Db, companyId?: string): Promise<number> {
  let query = db.selectFrom('companies').select((eb) => eb.fn.max('clock_offset_ms').as('offset'));
  if (companyId !== undefined) query = query.where('id', '=', companyId);
  const row = await query.executeTakeFirst();
  return Number(row?.offset ?? 0);
}

/**
 * The clock offset and time zone of each of the companies (those that exist): what housekeeping over
 * many companies needs to tell the day it is for each.
 */
export async function companyClocks(
  db: Db,
  companyIds: readonly string[],
): Promise<Map<string, { offsetMs: number; timeZone: string }>> {
  const clocks = new Map<string, { offsetMs: number; timeZone: string }>();
  for (const ids of chunks(companyIds)) {
    const rows = await db
      .selectFrom('companies')
      .select(['id', 'clock_offset_ms', 'time_zone'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) clocks.set(row.id, { offsetMs: Number(row.clock_offset_ms), timeZone: row.time_zone });
  }
  return clocks;
}

/** The company's clock over the wall clock `wall`. */
export async function companyClock(db: Db, wall: Clock, companyId: string): Promise<Clock> {
  return offsetClock(wall, await clockOffset(db, companyId));
}

/** Sets how far ahead of wall time the company's clock runs; call in a write transaction that checked it moves forward. */
export async function setClockOffset(db: Db, companyId: string, offsetMs: number): Promise<void> {
  await db.updateTable('companies').set({ clock_offset_ms: offsetMs }).where('id', '=', companyId).execute();
}
