// Reading cards, and what a card has spent.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { VcnError } from '../../../http/errors.js';
import type { VcnRow } from '../tables.js';

export const vcnNotFound = (vcnId: string) => new VcnError(404, 'vcn-not-found', `Virtual card ${vcnId} not found`);

/** The company's card, or 404 vcn-not-found (a card of another company is indistinguishable from none). */
export async function getVcn(db: Kysely<Database>, companyId: string, vcnId: string): Promise<VcnRow> {
  const row = await db.selectFrom('vcns').selectAll().where('company_id', '=', companyId).where('id', '=', vcnId).executeTakeFirst();
  if (!row) throw vcnNotFound(vcnId);
  return row;
}

/** Sum (minor units) and count of the card's approved purchases. */
export async function spentOn(db: Kysely<Database>, companyId: string, vcnId: string): Promise<{ spentMinor: number; purchases: number }> {
  const row = await db
    .selectFrom('vcn_transactions')
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('amount_minor'), eb.lit(0)).as('spent'), eb.fn.countAll<number>().as('purchases')])
    .where('company_id', '=', companyId)
    .where('vcn_id', '=', vcnId)
    .where('status', '=', 'APPROVED')
    .executeTakeFirstOrThrow();
  return { spentMinor: Number(row.spent), purchases: Number(row.purchases) };
}
