// Funding cards: the company's cards that fund virtual cards, one active per type and currency.
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/database.js';
import type { FundingCardRow, VcnType } from '../tables.js';
import { writeTransaction } from '../../../db/transaction.js';

export async function findActiveFundingCard(
  db: Kysely<Database>,
  companyId: string,
  cardType: VcnType,
  currency: string,
): Promise<FundingCardRow | undefined> {
  return db
    .selectFrom('funding_cards')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('card_type', '=', cardType)
    .where('currency', '=', currency)
    .where('active', '=', sql.lit(1)) // literal as in the partial index: a bound value makes SQLite recompile at each run
    .executeTakeFirst();
}

interface NewFundingCard {
  companyId: string;
  cardType: VcnType;
  currency: string;
  label?: string;
  last4?: string;
  active?: boolean;
  now: Date;
}

/** Adds a funding card; an active one replaces the active card of the same type and currency. */
export async function addFundingCard(db: Kysely<Database>, card: NewFundingCard): Promise<FundingCardRow> {
  const row: FundingCardRow = {
    id: randomUUID(),
    company_id: card.companyId,
    card_type: card.cardType,
    currency: card.currency,
    label: card.label ?? `${card.cardType} ${card.currency} funding card`,
    last4: card.last4 ?? '0000',
    active: card.active === false ? 0 : 1,
    created_at: card.now.toISOString(),
  };
  await writeTransaction(db, async (trx) => {
    if (row.active === 1) {
      await trx
        .updateTable('funding_cards')
        .set({ active: 0 })
        .where('company_id', '=', card.companyId)
        .where('card_type', '=', card.cardType)
        .where('currency', '=', card.currency)
        .execute();
    }
    await trx.insertInto('funding_cards').values(row).execute();
  });
  return row;
}
