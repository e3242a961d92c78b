// Listing the company's cards (newest first) with their spending, for the read operations.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { VcnRow, VcnType } from '../tables.js';
import type { VcnStatus } from '../status.js';
import { issuedCard } from './cards.js';

interface CardQuery {
  status?: VcnStatus;
  type?: VcnType;
  /** The company's current day: EXPIRED is a live card past its end date. */
  today: string;
  limit: number;
  /** Cards older than this id. */
  beforeId?: string;
}

/** A page of issued cards, newest first (`limit + 1` rows). */
export async function listCards(db: Kysely<Database>, companyId: string, q: CardQuery): Promise<VcnRow[]> {
  let query = db.selectFrom('vcns').selectAll().where('company_id', '=', companyId).where('status', '!=', 'PENDING');
  if (q.type) query = query.where('type', '=', q.type);
  if (q.status === 'CANCELLED') query = query.where('status', '=', 'CANCELLED');
  else if (q.status === 'EXPIRED') query = query.where('status', '!=', 'CANCELLED').where('end_date', '<', q.today);
  else if (q.status) query = query.where('status', '=', q.status).where('end_date', '>=', q.today);
  if (q.beforeId) query = query.where('id', '<', q.beforeId);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
  return rows.map(issuedCard);
}

/** Approved spending (minor units) and purchase count of each card. */
export async function spendingOf(
  db: Kysely<Database>,
  companyId: string,
  vcnIds: string[],
): Promise<Map<string, { spentMinor: number; purchases: number }>> {
  const out = new Map<string, { spentMinor: number; purchases: number }>();
  if (vcnIds.length === 0) return out;
  const rows = await db
    .selectFrom('vcn_transactions')
    .select((eb) => ['vcn_id', eb.fn.sum<number>('amount_minor').as('spent'), eb.fn.countAll<number>().as('purchases')])
    .where('company_id', '=', companyId)
    .where('vcn_id', 'in', vcnIds)
    .where('status', '=', 'APPROVED')
    .groupBy('vcn_id')
    .execute();
  for (const row of rows) out.set(row.vcn_id, { spentMinor: Number(row.spent), purchases: Number(row.purchases) });
  return out;
}
