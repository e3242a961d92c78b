// Every card the credit-card statement names is a card of GET /credit-cards/v1/cards: a record that
// arrives (seed, sandbox, ingest) registers its card when the company has none with that id, with
// the defaults of migration 0019 — a physical, activated card, expiring 4 years after it was first seen.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { NewCard } from '../tables.js';

/** What a statement record says of its card. */
interface CardOfRecord {
  company_id: string;
  card_id: string;
  final_card_number: string;
  bearer_name: string;
  user_id?: string | null;
}

/** The last day of the month `years` after `at` (UTC), as `YYYY-MM-DD`. */
export const expiryAfter = (at: Date, years: number) =>
  new Date(Date.UTC(at.getUTCFullYear() + years, at.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);

export const cardOfRecord = (record: CardOfRecord, at: Date): NewCard => ({
  company_id: record.company_id,
  id: record.card_id,
  type: 'PHYSICAL',
  status: 'ACTIVATED',
  last4: record.final_card_number,
  holder_name: record.bearer_name,
  name: `Cartão final ${record.final_card_number}`,
  product_name: 'Corporate Platinum',
  responsible_user_id: record.user_id ?? null,
  cost_center_id: null,
  purpose: null,
  expiration_date: expiryAfter(at, 4),
  block_reason: null,
  created_at: at.toISOString(),
  updated_at: at.toISOString(),
});

/** Registers the cards of `records` the companies do not have yet (one row per company and card id). */
export async function registerCards(trx: Kysely<Database>, records: readonly CardOfRecord[], now: Date): Promise<void> {
  const cards = new Map<string, NewCard>();
  for (const record of records) {
    const key = `${record.company_id}|${record.card_id}`;
    if (!cards.has(key)) cards.set(key, cardOfRecord(record, now));
  }
  for (const card of cards.values())
    await trx
      .insertInto('cards')
      .values(card)
      .onConflict((oc) => oc.columns(['company_id', 'id']).doNothing())
      .execute();
}
