// The statements' change feeds (`…/sync`): the company's rows in (change_seq, id) order after a
// position, each in its latest state, and whether it was created after that position. The order and
// why a reader never misses a change: server/areas/statements/versions.ts. Also the `*.created` events
// of the rows a write created, read back as the lists show them.
import type { Actor } from '../../../kit/handler.js';
import type { Db } from '../../../db/database.js';
import { recordEvents } from '../../events/public.js';
import { bankingItems, type BankingItem } from './banking-page.js';
import { creditCardItems, type CreditCardItem } from './credit-card-page.js';
import { withAttachments } from './attachments-of.js';
import { presentBanking, presentCreditCard } from '../present.js';
import { horizon } from '../versions.js';
import { type ErpFilters, withErpFilters } from './erp-filters.js';

/** The first change number the page may not read: an unfinished ingest run's (same statement, same snapshot). */
const horizonOf = (db: Db, companyId: string) => horizon(db, companyId).$asScalar();

/** A position in a feed: the (change_seq, id) of the last row read; [-1, …] before the first. */
export type FeedPosition<Id> = [number, Id];

/** A row of a page: changed (its latest state, and whether it was created after `sentThrough`), or removed (its id). */
type Changed<T, Id> =
  | { kind: 'changed'; item: T; added: boolean; position: FeedPosition<Id> }
  | { kind: 'removed'; id: Id; position: FeedPosition<Id> };

export interface FeedPage<T, Id> {
  changes: Changed<T, Id>[];
  more: boolean;
  /** Every row created up to this change number has been sent to the cursor's client (see `FeedRead`). */
  sentThrough: number;
}

/**
 * What a page is read after. The classification is by what this cursor's client was sent, not by where
 * the page starts: `sentThrough` is a change number such that every row created up to it has been sent
 * (0 until the first pass has come to its end). A row created after it is `added`, whatever was done to
 * it since — on the initial pass every row; an older row is `modified`. Removals are answered only when
 * later than `since`, the change number the cursor's first page was read at (what was removed before a
 * client's first page was never sent to it).
 */
interface FeedRead<Id> {
  companyId: string;
  after?: FeedPosition<Id>;
  take: number;
  sentThrough: number;
  since: number;
  /** The company's largest change number and ingest horizon, read before the page (versions.ts feedCeiling). */
  ceiling: { version: number; horizon: number | undefined };
}

type Seqs = { created_seq: number | string; change_seq: number | string };
type Removal<Id> = { id: Id; change_seq: number | string };

const before = <Id>(a: FeedPosition<Id>, b: FeedPosition<Id>) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/**
 * One page of a feed from the rows and the removals after the position, each read `take + 1` at a time.
 * Both are read up to `cap`: the largest change number read before them (numbers commit in order, so
 * every change up to it is visible to both reads), below the horizon of an unfinished ingest run. A
 * row already changed past it is left to the next page. A page that reaches the end (nothing more up to
 * the cap, nothing past it seen) has sent every row created up to the cap: the cursor's `sentThrough`.
 */
function pageOf<T extends { id: Id } & Seqs, Id extends number | string>(
  rows: T[],
  removals: Array<Removal<Id>>,
  q: FeedRead<Id>,
  cap: number,
): FeedPage<T, Id> {
  const changed: Changed<T, Id>[] = rows
    .filter((row) => Number(row.change_seq) <= cap)
    .map((row) => ({
      kind: 'changed',
      item: row,
      added: Number(row.created_seq) > q.sentThrough,
      position: [Number(row.change_seq), row.id],
    }));
  const removed: Changed<T, Id>[] = removals.map((r) => ({
    kind: 'removed',
    id: r.id,
    position: [Number(r.change_seq), r.id],
  }));
  const merged = [...changed, ...removed].sort((a, b) => (before(a.position, b.position) ? -1 : 1));
  const pastCap = rows.length > changed.length;
  const more = merged.length > q.take || pastCap || rows.length > q.take || removals.length > q.take;
  return {
    changes: merged.slice(0, q.take),
    more,
    sentThrough: more ? q.sentThrough : Math.max(q.sentThrough, cap),
  };
}

/** The largest change number a page may read: the ceiling, below an unfinished ingest run's number. */
const capOf = ({ version, horizon: h }: FeedRead<unknown>['ceiling']) =>
  h === undefined ? version : Math.min(version, h - 1);

/** The company's removals of one statement after the position, up to the cap and after `since`. */
function removalsAfter<Id extends number | string>(
  db: Db,
  column: 'banking_transaction_id' | 'credit_card_transaction_id',
  q: FeedRead<Id>,
  cap: number,
) {
  let query = db
    .selectFrom('statement_removals')
    .select([`${column} as id`, 'change_seq'])
    .where('company_id', '=', q.companyId)
    .where(column, 'is not', null)
    .where('change_seq', '<=', cap)
    .where('change_seq', '>', q.since);
  if (q.after) {
    const [seq, id] = q.after;
    query = query.where((eb) => eb(eb.refTuple('change_seq', column), '>', eb.tuple(seq, id as never)));
  }
  return query
    .orderBy('change_seq')
    .orderBy(column)
    .limit(q.take + 1);
}

export async function loadBankingChanges(
  db: Db,
  q: FeedRead<number> & { accountId?: number; erp?: ErpFilters },
): Promise<FeedPage<BankingItem & Seqs, number>> {
  const cap = capOf(q.ceiling);
  let query = bankingItems(db).select(['t.created_seq', 't.change_seq']).where('t.company_id', '=', q.companyId);
  if (q.accountId !== undefined) query = query.where('t.account_id', '=', q.accountId);
  query = withErpFilters(db, query, q.erp, 't');
  query = query.where((eb) =>
    eb.or([eb(horizonOf(db, q.companyId), 'is', null), eb('t.change_seq', '<', horizonOf(db, q.companyId))]),
  );
  if (q.after) {
    const [seq, id] = q.after;
    query = query.where((eb) => eb(eb.refTuple('t.change_seq', 't.id'), '>', eb.tuple(seq, id)));
  }
  const rows = await query
    .orderBy('t.change_seq')
    .orderBy('t.id')
    .limit(q.take + 1)
    .execute();
  let removals = removalsAfter(db, 'banking_transaction_id', q, cap);
  if (q.accountId !== undefined) removals = removals.where('account_id', '=', q.accountId);
  const removed = (await removals.execute()).map((r) => ({ id: Number(r.id), change_seq: r.change_seq }));
  return pageOf(rows.map(withAttachments) as Array<BankingItem & Seqs>, removed, q, cap);
}

export async function loadCreditCardChanges(
  db: Db,
  q: FeedRead<string> & { cardIds?: string[]; erp?: ErpFilters },
): Promise<FeedPage<CreditCardItem & Seqs, string>> {
  const cap = capOf(q.ceiling);
  let query = creditCardItems(db).where('t.company_id', '=', q.companyId);
  if (q.cardIds !== undefined) query = query.where('t.card_id', 'in', q.cardIds);
  query = withErpFilters(db, query, q.erp, 't');
  query = query.where((eb) =>
    eb.or([eb(horizonOf(db, q.companyId), 'is', null), eb('t.change_seq', '<', horizonOf(db, q.companyId))]),
  );
  if (q.after) {
    const [seq, id] = q.after;
    query = query.where((eb) => eb(eb.refTuple('t.change_seq', 't.id'), '>', eb.tuple(seq, id)));
  }
  const rows = await query
    .orderBy('t.change_seq')
    .orderBy('t.id')
    .limit(q.take + 1)
    .execute();
  let removals = removalsAfter(db, 'credit_card_transaction_id', q, cap);
  if (q.cardIds !== undefined) removals = removals.where('card_id', 'in', q.cardIds);
  const removed = (await removals.execute()).map((r) => ({ id: String(r.id), change_seq: r.change_seq }));
  return pageOf(rows.map(withAttachments) as Array<CreditCardItem & Seqs>, removed, q, cap);
}

/** Rows read back at a time for their events. */
const EVENT_CHUNK = 1_000;

type EventsAt = { now: Date; timeZone: string; actor: Actor };

/** Records one `type` event per row, each carrying the row as `present` shows it; the last row's id. */
async function recordCreated<Row extends { id: Id }, Id>(
  trx: Db,
  companyId: string,
  rows: Row[],
  type: 'banking_transaction.created' | 'credit_card_transaction.created',
  present: (row: Row) => unknown,
  at: EventsAt,
): Promise<Id | undefined> {
  const events = rows.map((row) => ({ type, ...at.actor, object: present(row) }));
  await recordEvents(trx, at.now, companyId, events);
  return rows.at(-1)?.id;
}

/**
 * Records the `banking_transaction.created` events of the company's banking rows created with change
 * number `version` whose id is after `after`, at most `take` of them in id order; returns the last id
 * recorded (undefined when none was left).
 */
export async function recordBankingCreated(
  trx: Db,
  companyId: string,
  version: number,
  after: number,
  take: number,
  at: EventsAt,
): Promise<number | undefined> {
  const rows = await bankingItems(trx)
    .where('t.company_id', '=', companyId)
    // A new row's change is its creation: (company_id, change_seq, id) is the index that finds them.
    .where('t.change_seq', '=', version)
    .where('t.created_seq', '=', version)
    .where('t.id', '>', after)
    .orderBy('t.id')
    .limit(take)
    .execute();
  return recordCreated(
    trx,
    companyId,
    rows,
    'banking_transaction.created',
    (row) => presentBanking(withAttachments(row), at.timeZone),
    at,
  );
}

/** The same for `credit_card_transaction.created`, after the credit-card id `after`. */
export async function recordCreditCardCreated(
  trx: Db,
  companyId: string,
  version: number,
  after: string,
  take: number,
  at: EventsAt,
): Promise<string | undefined> {
  const rows = await creditCardItems(trx)
    .where('t.company_id', '=', companyId)
    .where('t.change_seq', '=', version)
    .where('t.created_seq', '=', version)
    .where('t.id', '>', after)
    .orderBy('t.id')
    .limit(take)
    .execute();
  return recordCreated(
    trx,
    companyId,
    rows,
    'credit_card_transaction.created',
    (row) => presentCreditCard(withAttachments(row), at.timeZone),
    at,
  );
}

/**
 * Records `banking_transaction.created` / `credit_card_transaction.created`, carrying each row as
 * the list shows it, for the company's rows created with change number `version`. Call in the
 * transaction that created them (an ingest run records them after, in chunks: store/ingest-events.ts).
 */
export async function recordCreatedEvents(trx: Db, companyId: string, version: number, at: EventsAt): Promise<void> {
  for (let after: number | undefined = 0; after !== undefined; )
    after = await recordBankingCreated(trx, companyId, version, after, EVENT_CHUNK, at);
  for (let after: string | undefined = ''; after !== undefined; )
    after = await recordCreditCardCreated(trx, companyId, version, after, EVENT_CHUNK, at);
}
