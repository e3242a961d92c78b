// The card's purchase attempts, newest first, with keyset paging on (occurred_at, id).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { VcnTransactionRow, VcnTransactionStatus } from '../tables.js';

interface TransactionQuery {
  companyId: string;
  vcnId: string;
  startDate?: string;
  endDate?: string;
  statuses?: readonly VcnTransactionStatus[];
  /** Rows strictly after this (occurred_at, id) in date-descending order. */
  after?: readonly [string, string];
  limit: number;
}

export async function listTransactions(db: Kysely<Database>, query: TransactionQuery): Promise<VcnTransactionRow[]> {
  let q = db
    .selectFrom('vcn_transactions')
    .selectAll()
    .where('company_id', '=', query.companyId)
    .where('vcn_id', '=', query.vcnId);
  if (query.startDate) q = q.where('local_date', '>=', query.startDate);
  if (query.endDate) q = q.where('local_date', '<=', query.endDate);
  if (query.statuses && query.statuses.length > 0) q = q.where('status', 'in', query.statuses);
  const after = query.after;
  if (after) q = q.where((eb) => eb(eb.refTuple('occurred_at', 'id'), '<', eb.tuple(after[0], after[1])));
  return q.orderBy('occurred_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
}
