// Which of the ids an ingest file names exist in the company (accounts, users, categories, cost
// centers), and which credit-card ids are already taken.
import type { Db } from '../../../db/database.js';

export interface References {
  accountIds: Set<number>;
  users: Map<string, string>;
  categoryIds: Set<number>;
  costCenterIds: Set<string>;
  takenCardIds: Set<string>;
}

const chunks = <T>(items: T[], size = 500) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

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
  const refs: References = {
    accountIds: new Set(),
    users: new Map(),
    categoryIds: new Set(),
    costCenterIds: new Set(),
    takenCardIds: new Set(),
  };
  for (const ids of chunks(wanted.accountIds)) {
    const rows = await db
      .selectFrom('accounts')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', 'in', ids)
      .execute();
    rows.forEach((r) => refs.accountIds.add(r.id));
  }
  for (const ids of chunks(wanted.userIds)) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'email_normalized'])
      .where('company_id', '=', companyId)
      .where('id', 'in', ids)
      .execute();
    rows.forEach((r) => refs.users.set(r.id, r.email_normalized));
  }
  for (const ids of chunks(wanted.categoryIds)) {
    const rows = await db
      .selectFrom('categories')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', 'in', ids)
      .execute();
    rows.forEach((r) => refs.categoryIds.add(r.id));
  }
  for (const ids of chunks(wanted.costCenterIds)) {
    const rows = await db
      .selectFrom('cost_centers')
      .select('id')
      .where('company_id', '=', companyId)
      .where('id', 'in', ids)
      .execute();
    rows.forEach((r) => refs.costCenterIds.add(r.id));
  }
  for (const ids of chunks(wanted.cardIds)) {
    const rows = await db.selectFrom('credit_card_transactions').select('id').where('id', 'in', ids).execute();
    rows.forEach((r) => refs.takenCardIds.add(r.id));
  }
  return refs;
}
