// POST /sandbox/v1/banking-transactions and /credit-card-transactions: statement transactions
// arriving as the bank or card processor would report them. Each is checked as an ingest line is
// (the contract's schema by the validator, then the statement's rules and the company's references),
// and all of them are stored in one transaction with one `statement.ingested` event.
import type { Actor } from '../kit/handler.js';
import type { components } from '../../generated/openapi.js';
import type { Db } from '../db/database.js';
import { recordEvent } from '../areas/events/log.js';
import { isUniqueViolation } from '../db/errors.js';
import { badRequest, unprocessable } from '../kit/errors.js';
import { cardsById } from '../areas/statements/cards/store.js';
import {
  bankingProblems,
  bankingRowOf,
  creditCardProblems,
  creditCardRowOf,
  type BankingLine,
  type CreditCardLine,
} from '../areas/statements/ingest/convert.js';
import { referenceProblems } from '../areas/statements/ingest/run.js';
import { loadReferences } from '../areas/statements/store/ingest-references.js';
import { insertBankingTransactions, insertCreditCardTransactions } from '../areas/statements/store/insert.js';
import { findBankingItem } from '../areas/statements/store/banking-page.js';
import { findCreditCardItem } from '../areas/statements/store/credit-card-page.js';
import { presentBanking, presentCreditCard } from '../areas/statements/present.js';
import { recordCreatedEvents } from '../areas/statements/store/changes.js';
import { statementVersion, statementWriteTransaction } from '../areas/statements/versions.js';

type Schemas = components['schemas'];
/** Problems listed in one answer, as the validator lists them. */
const MAX_PROBLEMS = 20;
type Line = { statement: 'banking'; t: BankingLine } | { statement: 'credit-card'; t: CreditCardLine };

export interface Arrival {
  companyId: string;
  timeZone: string;
  /** The company's instant. */
  now: Date;
  actor: Actor;
}

/** The transactions of a body: one, or a batch's `transactions`. */
export const linesOf = <T>(body: T | { transactions: T[] }): T[] =>
  typeof body === 'object' && body !== null && 'transactions' in body ? body.transactions : [body as T];

/** Each problem of the lines (rules and references), prefixed with its place in a batch; 400 when any. */
async function check(db: Db, companyId: string, lines: Line[], batch: boolean): Promise<void> {
  const lower = (s: string) => s.toLowerCase();
  const refs = await loadReferences(db, companyId, {
    accountIds: lines.flatMap((l) => (l.statement === 'banking' ? [l.t.accountId] : [])),
    userIds: lines
      .flatMap((l) => [l.t.user?.id, l.statement === 'banking' ? l.t.requesterUser?.id : undefined])
      .filter((id): id is string => !!id)
      .map(lower),
    categoryIds: lines.flatMap((l) => (l.t.customCategory ? [l.t.customCategory.id] : [])),
    costCenterIds: lines.flatMap((l) => (l.t.costCenter ? [lower(l.t.costCenter.id)] : [])),
    cardIds: lines.flatMap((l) => (l.statement === 'credit-card' ? [l.t.id] : [])),
  });
  const seen = new Set<string>();
  const problems = lines.flatMap((l, i) => {
    const rules = l.statement === 'banking' ? bankingProblems(l.t) : creditCardProblems(l.t);
    const found = [...rules, ...referenceProblems({ ...l, line: i + 1, key: '' }, refs, seen)];
    return found.map((p) => (batch ? `transactions[${i}]: ${p}` : p));
  });
  if (problems.length > 0)
    throw badRequest(`${problems.length} problem(s); nothing was stored`, problems.slice(0, MAX_PROBLEMS));
}

/** Reads run this many at a time (a PostgreSQL pool serves them side by side), in order. */
const READS_AT_ONCE = 20;
async function inChunks<T, R>(items: T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += READS_AT_ONCE)
    out.push(...(await Promise.all(items.slice(i, i + READS_AT_ONCE).map(read))));
  return out;
}

const event = (a: Arrival, banking: number, creditCard: number) => ({
  companyId: a.companyId,
  type: 'statement.ingested' as const,
  ...a.actor,
  object: { file: 'sandbox', banking, creditCard, ingestedAt: a.now.toISOString() },
});

/** The `*.created` event of each transaction the arrival's write just stored (its statement version, still locked by `trx`). */
const recordCreated = async (trx: Db, a: Arrival) =>
  recordCreatedEvents(trx, a.companyId, await statementVersion(trx, a.companyId), {
    now: a.now,
    timeZone: a.timeZone,
    actor: a.actor,
  });

export async function createBanking(db: Db, a: Arrival, lines: BankingLine[], batch: boolean) {
  await check(
    db,
    a.companyId,
    lines.map((t) => ({ statement: 'banking', t })),
    batch,
  );
  const rows = lines.map((t) => bankingRowOf(t, a.companyId, a.now));
  const ids = await statementWriteTransaction(db, a.companyId, async (trx) => {
    const inserted = await insertBankingTransactions(trx, rows, a.now);
    await recordCreated(trx, a);
    await recordEvent(trx, a.now, event(a, rows.length, 0));
    return inserted;
  });
  const items = await inChunks(ids, (id) => findBankingItem(db, a.companyId, id));
  return items.flatMap((item): Schemas['BankingTransaction'][] => (item ? [presentBanking(item, a.timeZone)] : []));
}

/** A purchase on a card the company blocked, cancelled or has not activated is declined: 422 with the reason. */
async function declineOnStoppedCards(db: Db, companyId: string, lines: CreditCardLine[], batch: boolean) {
  const cards = await cardsById(
    db,
    companyId,
    lines.map((t) => t.cardId.toLowerCase()),
  );
  const declined = lines.flatMap((t, i) => {
    const card = cards.get(t.cardId.toLowerCase());
    if (!card || card.status === 'ACTIVATED') return [];
    const why = card.status === 'BLOCKED' && card.block_reason ? `: ${card.block_reason}` : '';
    return [`${batch ? `transactions[${i}].` : ''}cardId: declined, the card is ${card.status}${why}`];
  });
  if (declined.length > 0)
    throw unprocessable(`Purchase declined: ${declined[0]}; nothing was stored`, declined.slice(0, MAX_PROBLEMS), {
      param: 'cardId',
    });
}

export async function createCreditCard(db: Db, a: Arrival, lines: CreditCardLine[], batch: boolean) {
  await declineOnStoppedCards(db, a.companyId, lines, batch);
  await check(
    db,
    a.companyId,
    lines.map((t) => ({ statement: 'credit-card', t })),
    batch,
  );
  const rows = lines.map((t) => creditCardRowOf(t, a.companyId, a.timeZone, a.now));
  let ids: string[];
  try {
    // The ids come out of the transaction: a keyed retry answered from its recorded outcome reads
    // the rows that were stored, not the fresh ids this attempt drew.
    ids = await statementWriteTransaction(db, a.companyId, async (trx) => {
      await insertCreditCardTransactions(trx, rows, a.now);
      await recordCreated(trx, a);
      await recordEvent(trx, a.now, event(a, 0, rows.length));
      return rows.map((row) => row.id);
    });
  } catch (err) {
    // Another request took one of the ids since the check.
    if (isUniqueViolation(err)) throw badRequest('a transaction id already exists; nothing was stored');
    throw err;
  }
  const items = await inChunks(ids, (id) => findCreditCardItem(db, a.companyId, id));
  return items.flatMap((item): Schemas['CreditCardTransaction'][] =>
    item ? [presentCreditCard(item, a.timeZone)] : [],
  );
}
