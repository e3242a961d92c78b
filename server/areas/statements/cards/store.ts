// The company's cards: keyset pages by (created_at, id) newest first with the list's filters, one
// card, and a status change with its event in one transaction.
import type { Db } from '../../../db/database.js';
import { writeTransaction } from '../../../db/transaction.js';
import { recordEvent } from '../../events/public.js';
import type { CardRow } from '../tables.js';

interface CardsPageQuery {
  status?: CardRow['status'];
  type?: CardRow['type'];
  /** The ids of the company's users with the `email` filter's address (none: nothing matches). */
  responsibleIds?: string[];
  /** Lower case. */
  productName?: string;
  last4?: string;
  /** The (created_at, id) of the previous page's last card. */
  after?: [string, string];
  limit: number;
}

/** One page of the company's cards, newest first, with `limit + 1` rows when more follow. */
export async function pageCards(db: Db, companyId: string, q: CardsPageQuery): Promise<CardRow[]> {
  if (q.responsibleIds?.length === 0) return [];
  let query = db.selectFrom('cards').selectAll().where('company_id', '=', companyId);
  if (q.status !== undefined) query = query.where('status', '=', q.status);
  if (q.type !== undefined) query = query.where('type', '=', q.type);
  if (q.responsibleIds !== undefined) query = query.where('responsible_user_id', 'in', q.responsibleIds);
  if (q.productName !== undefined)
    query = query.where((eb) => eb(eb.fn('lower', ['product_name']), '=', q.productName!));
  if (q.last4 !== undefined) query = query.where('last4', '=', q.last4);
  if (q.after) {
    const [createdAt, id] = q.after;
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(createdAt, id)));
  }
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
}

const findCard = (db: Db, companyId: string, id: string): Promise<CardRow | undefined> =>
  db.selectFrom('cards').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();

/** The cards among `ids` of the company, by id. */
export async function cardsById(db: Db, companyId: string, ids: readonly string[]): Promise<Map<string, CardRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('cards')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

interface StatusChange {
  companyId: string;
  id: string;
  to: 'BLOCKED' | 'ACTIVATED';
  reason: string | null;
  clientId: string;
  /** The request that made the change; null for an operator's command. */
  requestId: string | null;
  now: Date;
}

/** Why a card cannot take the change: its status. */
export class CardStateConflict extends Error {
  constructor(readonly status: CardRow['status']) {
    super(`the card is ${status}`);
  }
}

/**
 * Blocks or unblocks a card, recording `card.blocked` / `card.unblocked` with the card as `show`
 * presents it; a card already in the target status is left as it is, with no event. Undefined when
 * the company has no such card; CardStateConflict when its status does not allow the change.
 */
export async function changeCardStatus(
  db: Db,
  change: StatusChange,
  show: (trx: Db, card: CardRow) => Promise<Record<string, unknown>>,
): Promise<CardRow | undefined> {
  return writeTransaction(db, async (trx) => {
    const card = await findCard(trx, change.companyId, change.id);
    if (!card || card.status === change.to) return card;
    if (card.status === 'CANCELLED' || card.status === 'INACTIVATED') throw new CardStateConflict(card.status);
    const updated: CardRow = {
      ...card,
      status: change.to,
      block_reason: change.to === 'BLOCKED' ? change.reason : null,
      updated_at: change.now.toISOString(),
    };
    await trx
      .updateTable('cards')
      .set({ status: updated.status, block_reason: updated.block_reason, updated_at: updated.updated_at })
      .where('company_id', '=', card.company_id)
      .where('id', '=', card.id)
      .execute();
    await recordEvent(trx, change.now, {
      companyId: change.companyId,
      type: change.to === 'BLOCKED' ? 'card.blocked' : 'card.unblocked',
      requestId: change.requestId,
      // The event's client is an API client's (an operator's command has none: its action names it).
      clientId: change.requestId === null ? null : change.clientId,
      object: await show(trx, updated),
      previousAttributes: { status: card.status, updatedAt: card.updated_at },
      action: { clientId: change.clientId, reason: change.to === 'BLOCKED' ? change.reason : null },
    });
    return updated;
  });
}
