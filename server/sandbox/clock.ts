// POST /sandbox/v1/clock/advance: moves a company's clock forward (server/areas/auth/company-clock.ts),
// then runs at once what time drives for the company: cards past their end date expire with
// `vcn.expired`, stamped with the company's new time. Bills and invites read the new day on the
// next request. POST /sandbox/v1/clock/reset puts it back on wall time: cards read their status on
// the real day again (one it expired before its end is live again, and will expire again with a
// new `vcn.expired`); events and time stamps recorded while it was ahead stay.
import type { Db } from '../db/database.js';
import { clockOffset, setClockOffset } from '../areas/auth/company-clock.js';
import { writeTransaction } from '../db/transaction.js';
import { badRequest } from '../kit/errors.js';
import { forgetExpiries, recordExpiries } from '../areas/vcn/store/expiry.js';
import { localDate } from '../lib/time.js';

/** How far ahead of wall time a company's clock may be moved. */
const MAX_CLOCK_AHEAD_MS = 10 * 366 * 24 * 60 * 60 * 1000;

/** Moves the company's clock to `to` at wall time `wall`; answers the clock's new instant. */
export async function advanceClock(db: Db, companyId: string, wall: Date, to: Date): Promise<Date> {
  if (to.getTime() - wall.getTime() > MAX_CLOCK_AHEAD_MS)
    throw badRequest('to is more than 10 years ahead of the current time', [
      `body.to must be at most 10 years after ${wall.toISOString()}`,
    ]);
  await writeTransaction(db, async (trx) => {
    const now = new Date(wall.getTime() + (await clockOffset(trx, companyId)));
    if (to < now)
      throw badRequest(`The company's clock only moves forward: to is before its now, ${now.toISOString()}`, [
        `body.to must not be before ${now.toISOString()}`,
      ]);
    await setClockOffset(trx, companyId, to.getTime() - wall.getTime());
  });
  await recordExpiries(db, wall, companyId);
  return to;
}

/** Puts the company's clock back on wall time `wall` (its day in `timeZone`); answers the clock's new instant. */
export async function resetClock(db: Db, companyId: string, timeZone: string, wall: Date): Promise<Date> {
  await writeTransaction(db, async (trx) => {
    await setClockOffset(trx, companyId, 0);
    await forgetExpiries(trx, companyId, localDate(wall, timeZone));
  });
  return wall;
}
