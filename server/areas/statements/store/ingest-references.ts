// Which of the ids an ingest file names exist in the company (accounts, users, categories, cost
// centers), and which credit-card ids are already taken.
import type { Db } from '../../../db/database.js';
import { categoryIdsIn, costCenterIdsIn } from '../../directory/public.js';
import { userEmails } from '../../users/public.js';
import { chunks } from '../../../lib/chunks.js';

export interface References {
  accountIds: Set<number>;
  users: Map<string, string>;
  categoryIds: Set<number>;
  costCenterIds: Set<string>;
  takenCardIds: Set<string>;
}

export async function loadReferences(
  db: Db,
  companyId: string,
  wanted: {
    accountIds: number[];
    userIds: string[];
    categoryIds: number[];
    costCenterIds: string[];
    cardIds: string[];
  },
): Promise<References> {
  const accountIds = new Set<number>();
  for (const ids of chunks(wanted.accountIds)) {
    const rows = await db
      .selectFrom('accounts')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', 'in', ids)
      .execute();
    rows.forEach((r) => accountIds.add(r.id));
  }
  const users = await userEmails(db, companyId, wanted.userIds);
  const categoryIds = await categoryIdsIn(db, companyId, wanted.categoryIds);
  const costCenterIds = await costCenterIdsIn(db, companyId, wanted.costCenterIds);
  const takenCardIds = new Set<string>();
  for (const ids of chunks(wanted.cardIds)) {
    const rows = await db.selectFrom('credit_card_transactions').select('id').where('id', 'in', ids).execute();
    rows.forEach((r) => takenCardIds.add(r.id));
  }
  return { accountIds, users, categoryIds, costCenterIds, takenCardIds };
}
