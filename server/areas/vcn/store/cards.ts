// Reading cards, and what a card has spent. A reservation (PENDING) is not a card yet: reads
// never see it.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { VcnError } from '../../../kit/errors.js';
import type { VcnRow, VcnTable } from '../tables.js';

export const vcnNotFound = (vcnId: string) => new VcnError(404, 'vcn-not-found', `Virtual card ${vcnId} not found`);

/** Narrows a stored row to an issued card; a reservation has no card data. */
export function issuedCard<R extends VcnTable>(row: R): Omit<R, keyof VcnRow> & VcnRow {
  const { status, provider_ref: providerRef, pan_ciphertext: ciphertext, pan_last4: last4 } = row;
  if (status === 'PENDING' || providerRef === null || ciphertext === null || last4 === null) {
    throw new Error(`virtual card ${row.id} is a reservation, not an issued card`);
  }
  return { ...row, status, provider_ref: providerRef, pan_ciphertext: ciphertext, pan_last4: last4 };
}

/** The company's card, or 404 vcn-not-found (a card of another company, or one still being issued, is indistinguishable from none). */
export async function getVcn(db: Kysely<Database>, companyId: string, vcnId: string): Promise<VcnRow> {
  const row = await db
    .selectFrom('vcns')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', vcnId)
    .where('status', '!=', 'PENDING')
    .executeTakeFirst();
  if (!row) throw vcnNotFound(vcnId);
  return issuedCard(row);
}

/** Sum (minor units) and count of the card's approved purchases. */
export async function spentOn(
  db: Kysely<Database>,
  companyId: string,
  vcnId: string,
): Promise<{ spentMinor: number; purchases: number }> {
  const row = await db
    .selectFrom('vcn_transactions')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('amount_minor'), eb.lit(0)).as('spent'),
      eb.fn.countAll<number>().as('purchases'),
    ])
    .where('company_id', '=', companyId)
    .where('vcn_id', '=', vcnId)
    .where('status', '=', 'APPROVED')
    .executeTakeFirstOrThrow();
  return { spentMinor: Number(row.spent), purchases: Number(row.purchases) };
}
