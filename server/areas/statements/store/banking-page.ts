// One page of the banking statement with everything a statement item shows: the page's ids come
// from the keyset query (banking-list.ts); names of users, categories and cost centers are joined
// by primary key, attachments fetched for the page's rows that have any.
import type { Db } from '../../../db/database.js';
import type { BankingTransactionRow } from '../tables.js';
import { pageIdsQuery } from './banking-list.js';
import { armsOf, type ArmShape } from './banking-arms.js';
import { compiledQueries, type Bind } from '../../../db/compiled.js';
import type { BankingPageQuery } from './banking-types.js';
import { bankingAttachments, type AttachmentSummary } from './attachments-of.js';
import { planBankingPage } from './banking-plan.js';

/** The columns a statement item shows (not its bookkeeping: creation time, ingest run, reconciliation time). */
const ITEM_COLUMNS = [
  'id',
  'company_id',
  'account_id',
  'transaction_type_id',
  'transaction_type_description',
  'transaction_type_icon',
  'sub_type',
  'status',
  'final_card_number',
  'bearer_name',
  'transaction_date',
  'brl_amount_minor',
  'usd_amount_minor',
  'usd_exchange_rate',
  'usd_exchange_rate_date',
  'total_amount_minor',
  'iof_amount_minor',
  'fee_service_amount_minor',
  'mcc_code',
  'mcc_group',
  'mcc_description',
  'id_purchase_event',
  'source_destination_name',
  'place_establishment',
  'description',
  'notes',
  'conciled',
  'category_code',
  'category_description',
  'custom_category_id',
  'cost_center_id',
  'user_id',
  'requester_user_id',
  'has_attachments',
] as const satisfies ReadonlyArray<keyof BankingTransactionRow>;
const itemColumns = ITEM_COLUMNS.map((c) => `t.${c}` as const);

export interface BankingItem extends Pick<BankingTransactionRow, (typeof ITEM_COLUMNS)[number]> {
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

/**
 * The page's rows (one more than `take`, to tell whether more follow) with joined names; `query`
 * already planned, `arms` those of its ids query (banking-arms.ts).
 */
export function bankingPageRowsQuery(db: Db, query: BankingPageQuery, arms = armsOf(idsOf(query))) {
  const direction = query.sort.direction;
  return db
    .selectFrom(pageIdsQuery(db, idsOf(query), arms).as('p'))
    .innerJoin('banking_transactions as t', 't.id', 'p.id')
    .leftJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('users as r', 'r.id', 't.requester_user_id')
    .leftJoin('categories as c', 'c.id', 't.custom_category_id')
    .leftJoin('cost_centers as cc', 'cc.id', 't.cost_center_id')
    .select(itemColumns)
    .select([
      'p.sort_key',
      'u.email as user_email',
      'r.email as requester_email',
      'c.name as custom_category_name',
      'cc.name as cost_center_name',
    ])
    .orderBy('p.sort_key', direction)
    .orderBy('p.id', direction);
}

/** The ids query of a page: one row more than the page, to tell whether more follow. */
const idsOf = (query: BankingPageQuery): BankingPageQuery => ({ ...query, take: query.take + 1 });

// The page query is compiled once per shape (server/db/compiled.ts). Its shape: the sort, the page
// size, the plan, the arms, which of the scalar filters are given, and the list and flag filters
// with their values (arms are built from them); the company, account, dates, amount and cursor are
// bound on each run.
const pageQueries = compiledQueries();

function shapeOf(query: BankingPageQuery, arms: ArmShape[]): string {
  const f = query.filters;
  return JSON.stringify([
    query.sort,
    query.take,
    query.rangePlan ?? null,
    query.after !== undefined,
    arms,
    {
      ...f,
      accountId: f.accountId !== undefined,
      from: f.from !== undefined,
      to: f.to !== undefined,
      amount: f.amount?.op ?? null,
    },
  ]);
}

const valuesOf = ({ companyId, filters: f, after }: BankingPageQuery) => ({
  companyId,
  accountId: f.accountId,
  from: f.from,
  to: f.to,
  amount: f.amount?.minor,
  afterKey: after?.[0],
  afterId: after?.[1],
});

function withPlaceholders(query: BankingPageQuery, bind: Bind): BankingPageQuery {
  const f = query.filters;
  return {
    ...query,
    companyId: bind('companyId'),
    filters: {
      ...f,
      ...(f.accountId !== undefined ? { accountId: bind<number>('accountId') } : {}),
      ...(f.from !== undefined ? { from: bind<string>('from') } : {}),
      ...(f.to !== undefined ? { to: bind<string>('to') } : {}),
      ...(f.amount ? { amount: { op: f.amount.op, minor: bind<number>('amount') } } : {}),
    },
    ...(query.after ? { after: [bind<string | number>('afterKey'), bind<number>('afterId')] } : {}),
  };
}

export async function loadBankingPage(db: Db, unplanned: BankingPageQuery): Promise<BankingPage> {
  const query = await planBankingPage(db, unplanned);
  const arms = armsOf(idsOf(query));
  const { rows } = await pageQueries(db, shapeOf(query, arms), valuesOf(query), (bind) =>
    bankingPageRowsQuery(db, withPlaceholders(query, bind), arms),
  );
  const more = rows.length > query.take;
  const pageRows = more ? rows.slice(0, query.take) : rows;
  const attachments = await bankingAttachments(
    db,
    query.companyId,
    pageRows.filter((r) => r.has_attachments === 1).map((r) => r.id),
  );
  // The rows become the items in place: copying 40 columns per row costs more than the query.
  const items = pageRows as Array<(typeof pageRows)[number] & { attachments: AttachmentSummary[] }>;
  for (const row of items) row.attachments = attachments.get(row.id) ?? [];
  const last = pageRows[pageRows.length - 1];
  return { items, nextKey: more && last ? [last.sort_key, last.id] : undefined };
}

/** One banking transaction of the company with its names and attachments, or undefined. */

const itemById = compiledQueries();

export async function findBankingItem(db: Db, companyId: string, id: number): Promise<BankingItem | undefined> {
  const {
    rows: [row],
  } = await itemById(db, 'by id', { companyId, id }, (bind) =>
    db
      .selectFrom('banking_transactions as t')
      .leftJoin('users as u', 'u.id', 't.user_id')
      .leftJoin('users as r', 'r.id', 't.requester_user_id')
      .leftJoin('categories as c', 'c.id', 't.custom_category_id')
      .leftJoin('cost_centers as cc', 'cc.id', 't.cost_center_id')
      .select(itemColumns)
      .select([
        'u.email as user_email',
        'r.email as requester_email',
        'c.name as custom_category_name',
        'cc.name as cost_center_name',
      ])
      .where('t.company_id', '=', bind<string>('companyId'))
      .where('t.id', '=', bind<number>('id')),
  );
  if (!row) return undefined;
  const attachments = await bankingAttachments(db, companyId, [row.id]);
  return { ...row, attachments: attachments.get(row.id) ?? [] };
}
