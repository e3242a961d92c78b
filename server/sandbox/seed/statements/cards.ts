// The seeded company's corporate cards: one physical card per holder of the statement (its records
// name it), and three without records — two virtual cards (one for software subscriptions, one for
// travel bookings) and an old physical card, cancelled. Ids and numbers come from the company id,
// not from the generator, so the rest of the seed draws what it always drew.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/database.js';
import { cardOfRecord, expiryAfter } from '../../../areas/statements/cards/register.js';
import type { NewCard } from '../../../areas/statements/tables.js';
import type { Card, Generator } from './context.js';

const DAY = 86_400_000;

function derived(companyId: string, label: string) {
  const digest = createHash('sha256').update(`seed-card:${companyId}:${label}`).digest('hex');
  return {
    id: `${digest.slice(0, 8)}-${digest.slice(8, 12)}-4${digest.slice(13, 16)}-a${digest.slice(17, 20)}-${digest.slice(20, 32)}`,
    last4: String(Number.parseInt(digest.slice(0, 8), 16) % 10_000).padStart(4, '0'),
  };
}

export function seededCards(g: Generator, historyDays: number): NewCard[] {
  const issued = new Date(g.now.getTime() - historyDays * DAY);
  const physical = g.cards.map(
    (card: Card): NewCard => ({
      ...cardOfRecord(
        {
          company_id: g.companyId,
          card_id: card.id,
          final_card_number: card.last4,
          bearer_name: card.bearer,
          user_id: card.holder?.id,
        },
        issued,
      ),
      name: card.holder ? `Cartão ${card.holder.name}` : 'Cartão da empresa',
      purpose: 'Viagens e despesas comerciais',
    }),
  );
  const owner = g.cards[0]?.holder ?? null;
  const costCenter = g.pools.costCenterIds[0] ?? null;
  const extra = (label: string, card: Partial<NewCard> & Pick<NewCard, 'name' | 'type' | 'status'>, days: number) => {
    const { id, last4 } = derived(g.companyId, label);
    const at = new Date(g.now.getTime() - days * DAY);
    return {
      ...cardOfRecord(
        {
          company_id: g.companyId,
          card_id: id,
          final_card_number: last4,
          bearer_name: 'CARTAO EMPRESA',
          user_id: owner?.id,
        },
        at,
      ),
      ...card,
    };
  };
  return [
    ...physical,
    extra(
      'software',
      {
        name: 'Assinaturas de software',
        type: 'VIRTUAL',
        status: 'ACTIVATED',
        product_name: 'Corporate Virtual',
        purpose: 'Assinaturas SaaS da equipe de tecnologia',
        cost_center_id: costCenter,
      },
      200,
    ),
    extra(
      'travel',
      {
        name: 'Reservas de viagem',
        type: 'VIRTUAL',
        status: 'ACTIVATED',
        product_name: 'Corporate Virtual',
        purpose: 'Hotéis e passagens reservados pela agência',
        cost_center_id: costCenter,
      },
      90,
    ),
    extra(
      'replaced',
      {
        name: 'Cartão antigo (substituído)',
        type: 'PHYSICAL',
        status: 'CANCELLED',
        expiration_date: expiryAfter(new Date(g.now.getTime() - historyDays * 2 * DAY), 4),
      },
      historyDays * 2,
    ),
  ];
}

/** Writes the seeded cards (before the statement's records, which would register bare ones). */
export async function insertSeededCards(trx: Kysely<Database>, cards: NewCard[]): Promise<void> {
  for (const card of cards)
    await trx
      .insertInto('cards')
      .values(card)
      .onConflict((oc) => oc.columns(['company_id', 'id']).doNothing())
      .execute();
}
