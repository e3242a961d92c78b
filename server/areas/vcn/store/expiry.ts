// `vcn.expired`: EXPIRED is never stored (it is computed from the end date), so the event is
// recorded by housekeeping — once per card, claimed by a conditional UPDATE — after the card's
// last day has passed in its company's time zone, on the company's clock. Moving a sandbox
// company's clock runs it at once for that company.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { localDate } from '../../../lib/time.js';
import { issuedCard } from './cards.js';
import { recordVcnEvent } from './events.js';
import { writeTransaction } from '../../../db/transaction.js';
import { companyClocks, largestClockOffset } from '../../auth/public.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Records `vcn.expired` for every live card past its end date that has none yet (of `companyId`
 * alone when given), at wall time `wall` on each company's clock; answers how many.
 */
export async function recordExpiries(db: Kysely<Database>, wall: Date, companyId?: string): Promise<number> {
  // Every zone's day is at most a day ahead of UTC's: this keeps the candidates few.
  const latest = localDate(new Date(wall.getTime() + DAY_MS + (await largestClockOffset(db, companyId))), 'UTC');
  let query = db
    .selectFrom('vcns')
    .selectAll()
    .where('status', 'in', ['ACTIVE', 'BLOCKED'])
    .where('expired_event_at', 'is', null)
    .where('end_date', '<', latest);
  if (companyId !== undefined) query = query.where('company_id', '=', companyId);
  const candidates = await query.execute();
  const clocks = await companyClocks(db, [...new Set(candidates.map((row) => row.company_id))]);
  let recorded = 0;
  for (const row of candidates) {
    const clock = clocks.get(row.company_id);
    if (!clock) continue;
    const now = new Date(wall.getTime() + clock.offsetMs);
    if (localDate(now, clock.timeZone) <= row.end_date) continue;
    const done = await writeTransaction(db, async (trx) => {
      const claimed = await trx
        .updateTable('vcns')
        .set({ expired_event_at: now.toISOString() })
        .where('id', '=', row.id)
        .where('expired_event_at', 'is', null)
        .executeTakeFirst();
      if (claimed.numUpdatedRows !== 1n) return false;
      const card = issuedCard(row);
      await recordVcnEvent(trx, 'vcn.expired', card, now, { before: { status: card.status } });
      return true;
    });
    if (done) recorded += 1;
  }
  return recorded;
}

/**
 * Forgets the `vcn.expired` of the company's cards whose last day is `today` or later: the sandbox
 * clock was put back before their end, so they read live again and expire again (with a new event)
 * once their last day has passed. Call in the write transaction that moves the clock back.
 */
export async function forgetExpiries(db: Kysely<Database>, companyId: string, today: string): Promise<void> {
  await db
    .updateTable('vcns')
    .set({ expired_event_at: null })
    .where('company_id', '=', companyId)
    .where('expired_event_at', 'is not', null)
    .where('end_date', '>=', today)
    .execute();
}
