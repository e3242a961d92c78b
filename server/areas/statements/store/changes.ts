// The statements' change feeds (`…/sync`): the company's rows in (change_seq, id) order after a
// position, each in its latest state, and whether the reader was sent it before: it was iff it was
// created at or before `sentThrough`, the change number through which the reader has every row (the
// end of its last pass that ran out of rows; -1 before its first). The order and
// why a reader never misses a change: server/areas/statements/versions.ts. Also the `*.created` events
// of the rows a write created, read back as the lists show them.
import type { Db } from '../../../db/database.js';
import { recordEvents } from '../../events/public.js';
import { bankingItems, type BankingItem } from './banking-page.js';
import { creditCardItems, type CreditCardItem } from './credit-card-page.js';
import { withAttachments } from './attachments-of.js';
import { presentBanking, presentCreditCard } from '../present.js';
import { horizon } from '../versions.js';

/** The first change number the page may not read: an unfinished ingest run's (same statement, same snapshot). */
const horizonOf = (db: Db, companyId: string) => horizon(db, companyId).$asScalar();

/** A position in a feed: the (change_seq, id) of the last row read; [-1, …] before the first. */
export type FeedPosition<Id> = [number, Id];

interface Changed<T> {
  item: T;
  /** Not sent to this reader before: created after its `sentThrough`. */
  added: boolean;
  position: FeedPosition<string | number>;
}

interface FeedPage<T> {
  changes: Changed<T>[];
  more: boolean;
}

type Seqs = { created_seq: number | string; change_seq: number | string };

/** Keeps `take` of the `take + 1` rows, marking each added (not sent before) or modified. */
function pageOf<T extends { id: string | number } & Seqs>(rows: T[], sentThrough: number, take: number) {
  return {
    changes: rows.slice(0, take).map((row) => ({
      item: row,
      added: Number(row.created_seq) > sentThrough,
      position: [Number(row.change_seq), row.id] as FeedPosition<string | number>,
    })),
    more: rows.length > take,
  };
}

export async function loadBankingChanges(
  db: Db,
  q: { companyId: string; accountId?: number; after?: FeedPosition<number>; sentThrough: number; take: number },
): Promise<FeedPage<BankingItem>> {
  let query = bankingItems(db).select(['t.created_seq', 't.change_seq']).where('t.company_id', '=', q.companyId);
  if (q.accountId !== undefined) query = query.where('t.account_id', '=', q.accountId);
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
  return pageOf(rows.map(withAttachments) as Array<BankingItem & Seqs>, q.sentThrough, q.take);
}

export async function loadCreditCardChanges(
  db: Db,
  q: { companyId: string; cardIds?: string[]; after?: FeedPosition<string>; sentThrough: number; take: number },
): Promise<FeedPage<CreditCardItem>> {
  let query = creditCardItems(db).where('t.company_id', '=', q.companyId);
  if (q.cardIds !== undefined) query = query.where('t.card_id', 'in', q.cardIds);
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
  return pageOf(rows.map(withAttachments) as Array<CreditCardItem & Seqs>, q.sentThrough, q.take);
}

/** Rows read back at a time for their events. */
const EVENT_CHUNK = 1_000;

/**
 * Records `banking_transaction.created` / `credit_card_transaction.created`, carrying each row as
 * the list shows it, for the company's rows created with change number `version`. Call in the
 * transaction that created them.
 */
export async function recordCreatedEvents(
  trx: Db,
  companyId: string,
  version: number,
  at: { now: Date; timeZone: string; requestId: string | null },
): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await bankingItems(trx)
      .where('t.company_id', '=', companyId)
      // A new row's change is its creation: (company_id, change_seq, id) is the index that finds them.
      .where('t.change_seq', '=', version)
      .where('t.created_seq', '=', version)
      .where('t.id', '>', after)
      .orderBy('t.id')
      .limit(EVENT_CHUNK)
      .execute();
    const events = rows.map((row) => ({
      type: 'banking_transaction.created' as const,
      requestId: at.requestId,
      object: presentBanking(withAttachments(row), at.timeZone),
    }));
    await recordEvents(trx, at.now, companyId, events);
    if (rows.length < EVENT_CHUNK) break;
    after = rows.at(-1)!.id;
  }
  for (let after = ''; ; ) {
    const rows = await creditCardItems(trx)
      .where('t.company_id', '=', companyId)
      .where('t.change_seq', '=', version)
      .where('t.created_seq', '=', version)
      .where('t.id', '>', after)
      .orderBy('t.id')
      .limit(EVENT_CHUNK)
      .execute();
    const events = rows.map((row) => ({
      type: 'credit_card_transaction.created' as const,
      requestId: at.requestId,
      object: presentCreditCard(withAttachments(row), at.timeZone),
    }));
    await recordEvents(trx, at.now, companyId, events);
    if (rows.length < EVENT_CHUNK) break;
    after = rows.at(-1)!.id;
  }
}
