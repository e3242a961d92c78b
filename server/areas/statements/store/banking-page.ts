// One page of the banking statement with everything a statement item shows: the page's ids come
// from the keyset query (banking-list.ts); names of users, categories and cost centers are joined
// by primary key, attachments fetched for the page's rows that have any.
import type { Db } from '../../../db/database.js';
import type { BankingTransactionRow } from '../tables.js';
import { pageIdsQuery } from './banking-list.js';
import type { BankingPageQuery } from './banking-types.js';
import { bankingAttachments, type AttachmentSummary } from './attachments-of.js';
import { planBankingPage } from './banking-plan.js';

export interface BankingItem extends BankingTransactionRow {
  user_email: string | null;
  requester_email: string | null;
  custom_category_name: string | null;
  cost_center_name: string | null;
  attachments: AttachmentSummary[];
}

export interface BankingPage {
  items: BankingItem[];
  /** The sort key of the last item when more rows follow. */
  nextKey?: [string | number, number];
}

/** The page's rows (one more than `take`, to tell whether more follow) with joined names; `query` already planned. */
export function bankingPageRowsQuery(db: Db, query: BankingPageQuery) {
  const direction = query.sort.direction;
  return db
    .selectFrom(pageIdsQuery(db, { ...query, take: query.take + 1 }).as('p'))
    .innerJoin('banking_transactions as t', 't.id', 'p.id')
    .leftJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('users as r', 'r.id', 't.requester_user_id')
    .leftJoin('categories as c', 'c.id', 't.custom_category_id')
    .leftJoin('cost_centers as cc', 'cc.id', 't.cost_center_id')
    .selectAll('t')
    .select(['p.sort_key', 'u.email as user_email', 'r.email as requester_email', 'c.name as custom_category_name', 'cc.name as cost_center_name'])
    .orderBy('p.sort_key', direction)
    .orderBy('p.id', direction);
}

export async function loadBankingPage(db: Db, unplanned: BankingPageQuery): Promise<BankingPage> {
  const query = await planBankingPage(db, unplanned);
  const rows = await bankingPageRowsQuery(db, query).execute();
  const more = rows.length > query.take;
  const pageRows = more ? rows.slice(0, query.take) : rows;
  const attachments = await bankingAttachments(db, query.companyId, pageRows.filter((r) => r.has_attachments === 1).map((r) => r.id));
  const items = pageRows.map(({ sort_key: _key, ...row }) => ({ ...row, attachments: attachments.get(row.id) ?? [] }));
  const last = pageRows[pageRows.length - 1];
  return { items, nextKey: more && last ? [last.sort_key, last.id] : undefined };
}

/** One banking transaction of the company with its names and attachments, or undefined. */

export async function findBankingItem(db: Db, companyId: string, id: number): Promise<BankingItem | undefined> {
  const row = await db
    .selectFrom('banking_transactions as t')
    .leftJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('users as r', 'r.id', 't.requester_user_id')
    .leftJoin('categories as c', 'c.id', 't.custom_category_id')
    .leftJoin('cost_centers as cc', 'cc.id', 't.cost_center_id')
    .selectAll('t')
    .select(['u.email as user_email', 'r.email as requester_email', 'c.name as custom_category_name', 'cc.name as cost_center_name'])
    .where('t.company_id', '=', companyId)
    .where('t.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const attachments = await bankingAttachments(db, companyId, [row.id]);
  return { ...row, attachments: attachments.get(row.id) ?? [] };
}
