// The company's clock (sandbox test clocks): wall time plus an offset stored on the company, so every
// process, replica and worker reads the same instant. Business rules read it; security clocks
// (tokens, signed URLs, idempotency retention, rate limits, webhook retries) stay on wall time.
// Authenticated requests carry it as `auth.companyClock`; this module serves the callers without
// a token (the command line, housekeeping) and the sandbox that moves it.
import { offsetClock, type Clock } from '../lib/clock.js';
import type { Db } from './database.js';

/** How far ahead of wall time the company's clock runs (0 when never moved or no such company). */
export async function clockOffset(db: Db, companyId: string): Promise<number> {
  const row = await db.selectFrom('companies').select('clock_offset_ms').where('id', '=', companyId).executeTakeFirst();
  return Number(row?.clock_offset_ms ?? 0);
}

/** The company's clock over the wall clock `wall`. */
export async function companyClock(db: Db, wall: Clock, companyId: string): Promise<Clock> {
  return offsetClock(wall, await clockOffset(db, companyId));
}

/** Sets how far ahead of wall time the company's clock runs; call in a write transaction that checked it moves forward. */
export async function setClockOffset(db: Db, companyId: string, offsetMs: number): Promise<void> {
  await db.updateTable('companies').set({ clock_offset_ms: offsetMs }).where('id', '=', companyId).execute();
}
