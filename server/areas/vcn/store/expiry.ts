// `vcn.expired`: EXPIRED is never stored (it is computed from the end date), so the event is
// recorded by housekeeping — once per card, claimed by a conditional UPDATE — after the card's
// last day has passed in its company's time zone, on the company's clock. Moving a sandbox
// company's clock runs it at once for that company.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { localDate } from '../../../lib/time.js';
import { issuedCard } from './cards.js';
import { recordVcnEvent } from './events.js';
import { writeTransaction } from '../../../db/transaction.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The largest offset of a company clock (of `companyId` alone when given). */
async function largestOffset(db: Kysely<Database>, companyId?: string): Promise<number> {
  let query = db.selectFrom('companies').select((eb) => eb.fn.max('clock_offset_ms').as('offset'));
  if (companyId !== undefined) query = query.where('id', '=', companyId);
  const row = await query.executeTakeFirst();
  return Number(row?.offset ?? 0);
}

/**
 * Records `vcn.expired` for every live card past its end date that has none yet (of `companyId`
 * alone when given), at wall time `wall` on each company's clock; answers how many.
 */
export async function recordExpiries(db: Kysely<Database>, wall: Date, companyId?: string): Promise<number> {
  // Every zone's day is at most a day ahead of UTC's: this keeps the candidates few.
  const latest = localDate(new Date(wall.getTime() + DAY_MS + (await largestOffset(db, companyId))), 'UTC');
  let query = db
    .selectFrom('vcns')
    .innerJoin('companies', 'companies.id', 'vcns.company_id')
    .selectAll('vcns')
    .select(['companies.time_zone', 'companies.clock_offset_ms'])
    .where('vcns.status', 'in', ['ACTIVE', 'BLOCKED'])
    .where('vcns.expired_event_at', 'is', null)
    .where('vcns.end_date', '<', latest);
  if (companyId !== undefined) query = query.where('vcns.company_id', '=', companyId);
  const candidates = await query.execute();
  let recorded = 0;
  for (const { time_zone: zone, clock_offset_ms: offset, ...row } of candidates) {
    const now = new Date(wall.getTime() + Number(offset));
    if (localDate(now, zone) <= row.end_date) continue;
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
