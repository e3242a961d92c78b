// Accounts and their balances. Balances are kept current by the statement writers (seed, ingest),
// in the same transaction as the movements they count.
import type { Db } from '../../../db/database.js';
import type { AccountRow } from '../tables.js';

export async function listAccounts(db: Db, companyId: string, accountId?: number): Promise<AccountRow[]> {
  let query = db.selectFrom('accounts').selectAll().where('company_id', '=', companyId);
  if (accountId !== undefined) query = query.where('id', '=', accountId);
  return query.orderBy('id').execute();
}
