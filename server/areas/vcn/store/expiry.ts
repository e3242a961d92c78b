// `vcn.expired`: EXPIRED is never stored (it is computed from the end date), so the event is
// recorded by housekeeping — once per card, claimed by a conditional UPDATE — after the card's
// last day has passed in its company's time zone.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { localDate } from '../../../lib/time.js';
import { issuedCard } from './cards.js';
import { recordVcnEvent } from './events.js';
import { writeTransaction } from '../../../db/transaction.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Records `vcn.expired` for every live card past its end date that has none yet; answers how many. */
export async function recordExpiries(db: Kysely<Database>, now: Date): Promise<number> {
  // Every zone's day is at most a day ahead of UTC's: this keeps the candidates few.
  const latest = localDate(new Date(now.getTime() + DAY_MS), 'UTC');
  const candidates = await db
    .selectFrom('vcns')
    .innerJoin('companies', 'companies.id', 'vcns.company_id')
    .selectAll('vcns')
    .select('companies.time_zone')
    .where('vcns.status', 'in', ['ACTIVE', 'BLOCKED'])
    .where('vcns.expired_event_at', 'is', null)
    .where('vcns.end_date', '<', latest)
    .execute();
  let recorded = 0;
  for (const { time_zone: zone, ...row } of candidates) {
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
