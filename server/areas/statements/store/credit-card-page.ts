// The credit-card statement: keyset pages by (transaction_date, id) newest first, optionally of some
// cards (one ordered arm per card, merged), and every record of one bill; names and attachments in
// the same query.
import type { Db } from '../../../db/database.js';
import { literalLimit } from '../../../db/dialect.js';
import {
  CREDIT_CARD_COLUMNS,
  ERP_COLUMNS,
  type CreditCardTransactionRow,
  type ErpState,
  type SIGNATURE_COLUMNS,
} from '../tables.js';
import { ofTypes, type CreditCardType } from '../card-types.js';
import { withDisplayNames } from '../../directory/public.js';
import { attachmentsOfRow, withAttachments, type AttachmentSummary } from './attachments-of.js';
import { boundedWalk, CREDIT_CARD_DOCUMENT, matchesSearch, unwalked, walkedArm, type SearchWord } from './search.js';
import { type ErpFilters, withErpFilters } from './erp-filters.js';
import { withColumnFilters, type CardColumnFilters } from './credit-card-filters.js';

/** A record's columns as an item reads them: all but its search signature. */
type ItemRow = Omit<CreditCardTransactionRow, (typeof SIGNATURE_COLUMNS)[number]>;
const ITEM_COLUMNS = [
  ...CREDIT_CARD_COLUMNS,
  'ingest_run_id',
  'created_seq',
  'change_seq',
  ...ERP_COLUMNS,
] as const satisfies ReadonlyArray<keyof ItemRow>;
const itemColumns = ITEM_COLUMNS.map((c) => `t.${c}` as const);

type ErpColumn = (typeof ERP_COLUMNS)[number];

export interface CreditCardItem extends Omit<ItemRow, ErpColumn>, ErpState {
  user_email: string | null;
  custom_category_name: string | null;
  cost_center_name: string | null;
  attachments: AttachmentSummary[];
}

/** The column filters of credit-card-filters.ts, the cards, the types, the search and the range. */
export interface CreditCardPageQuery extends CardColumnFilters {
  companyId: string;
  cardIds?: string[];
  types?: CreditCardType[];
  /** `q`: every word found in the record (store/search.ts). */
  search?: SearchWord[];
  /** `metadata[key]` and `syncStatus` (erp-filters.ts). */
  erp?: ErpFilters;
  from?: string;
  to?: string;
  after?: [string, string];
  take: number;
}

type Filters = Omit<CreditCardPageQuery, 'cardIds' | 'after' | 'take'>;

/** The company's records matching the filters but the cards (the list merges one arm per card). */
export function cardRecordsFiltered(db: Db, q: Filters) {
  let query = db.selectFrom('credit_card_transactions').where('company_id', '=', q.companyId);
  const { types } = q;
  if (types !== undefined) query = query.where((eb) => ofTypes(eb, types));
  query = withColumnFilters(query, q);
  if (q.search) query = query.where(matchesSearch<'credit_card_transactions'>(db, CREDIT_CARD_DOCUMENT, q.search));
  query = withErpFilters(db, query, q.erp);
  if (q.from !== undefined) query = query.where('transaction_date', '>=', q.from);
  if (q.to !== undefined) query = query.where('transaction_date', '<', q.to);
  return query;
}

/** An arm's query: its records' ids and times, in order. */
type ArmQuery = ReturnType<typeof entriesOf>;

function entriesOf(db: Db, q: CreditCardPageQuery, cardId: string | undefined) {
  let query = cardRecordsFiltered(db, q).select(['id', 'transaction_date']);
  if (cardId !== undefined) query = query.where('card_id', '=', cardId);
  if (q.after) {
    const [date, id] = q.after;
    query = query.where((eb) => eb(eb.refTuple('transaction_date', 'id'), '<', eb.tuple(date, id)));
  }
  return query.orderBy('transaction_date', 'desc').orderBy('id', 'desc');
}

function arm(db: Db, q: CreditCardPageQuery, cardId: string | undefined): ArmQuery {
  // A bounded walk (dialect.ts `searchWalk`): the arm's first entries without the search, then the search.
  const bound = boundedWalk(db, q.search, q.take);
  if (bound === undefined) return entriesOf(db, q, cardId).limit(literalLimit(q.take));
  const entries = entriesOf(db, { ...q, search: undefined }, cardId)
    .select(['search_sig_lo', 'search_sig_hi'])
    .limit(literalLimit(bound));
  return walkedArm(db, CREDIT_CARD_DOCUMENT, q.search!, entries, {
    key: 'transaction_date',
    direction: 'desc',
    take: q.take,
  });
}

function pageIds(db: Db, q: CreditCardPageQuery) {
  const cards = q.cardIds ?? [];
  if (cards.length <= 1) return arm(db, q, cards[0]);
  const [first, ...rest] = cards.map((card, i) => db.selectFrom(arm(db, q, card).as(`arm${i}`)).selectAll());
  let union = first!;
  for (const next of rest) union = union.unionAll(next);
  return union.orderBy('transaction_date', 'desc').orderBy('id', 'desc').limit(literalLimit(q.take));
}

/** The items of a details query, in its order. */
async function withDetails(base: ReturnType<typeof detailsQuery>): Promise<CreditCardItem[]> {
  return (await base.execute()).map(withAttachments);
}

/** Card records with their names and attachments, for a caller's own filter and order (change feed, created events). */
export const creditCardItems = (db: Db) =>
  db
    .selectFrom('credit_card_transactions as t')
    .select(itemColumns)
    .select((eb) => attachmentsOfRow(db, 'credit_card_transactions', eb))
    .$call(withDisplayNames);

function detailsQuery(db: Db) {
  return creditCardItems(db).orderBy('t.transaction_date', 'desc').orderBy('t.id', 'desc');
}

export async function loadCreditCardPage(
  db: Db,
  q: CreditCardPageQuery,
): Promise<{ items: CreditCardItem[]; nextKey?: [string, string] }> {
  const ids = pageIds(db, { ...q, take: q.take + 1 });
  const rows = await withDetails(detailsQuery(db).where('t.id', 'in', db.selectFrom(ids.as('p')).select('p.id')));
  // A bounded walk that leaves the page short may have stopped before the records that fill it.
  if (rows.length <= q.take && boundedWalk(db, q.search, q.take) !== undefined)
    return loadCreditCardPage(db, { ...q, search: unwalked(q.search!) });
  const more = rows.length > q.take;
  const items = more ? rows.slice(0, q.take) : rows;
  const last = items[items.length - 1];
  return { items, nextKey: more && last ? [last.transaction_date, last.id] : undefined };
}

/** Every record charged on the company's bill due on `dueDate`, newest first. */
export function loadBillTransactions(db: Db, companyId: string, dueDate: string): Promise<CreditCardItem[]> {
  return withDetails(detailsQuery(db).where('t.company_id', '=', companyId).where('t.bill_due_date', '=', dueDate));
}

/** One record of the company, or undefined. */
export async function findCreditCardItem(db: Db, companyId: string, id: string): Promise<CreditCardItem | undefined> {
  const rows = await withDetails(detailsQuery(db).where('t.company_id', '=', companyId).where('t.id', '=', id));
  return rows[0];
}
