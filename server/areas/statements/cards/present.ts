// Card rows → the contract's Card, with the responsible user's name and address and the cost
// center's name read once per page.
import type { components } from '../../../../generated/openapi.js';
import type { Db } from '../../../db/database.js';
import { costCenterNames } from '../../directory/public.js';
import { userContacts } from '../../users/public.js';
import type { CardRow } from '../tables.js';

type Card = components['schemas']['Card'];

/** The cards as the API shows them, in the order given. */
export async function presentCards(db: Db, companyId: string, cards: readonly CardRow[]): Promise<Card[]> {
  const userIds = cards.flatMap((c) => (c.responsible_user_id ? [c.responsible_user_id] : []));
  const costCenterIds = cards.flatMap((c) => (c.cost_center_id ? [c.cost_center_id] : []));
  const [users, costCenters] = await Promise.all([
    userContacts(db, companyId, [...new Set(userIds)]),
    costCenterNames(db, companyId, [...new Set(costCenterIds)]),
  ]);
  return cards.map((card) => {
    const responsible = card.responsible_user_id ? users.get(card.responsible_user_id) : undefined;
    const costCenter = card.cost_center_id ? costCenters.get(card.cost_center_id) : undefined;
    const [year, month] = card.expiration_date.split('-');
    return {
      id: card.id,
      maskedNumber: `**** **** **** ${card.last4}`,
      cardHolderName: card.holder_name,
      responsible: responsible ? { name: responsible.name, email: responsible.email } : null,
      type: card.type,
      status: card.status,
      createdAt: new Date(card.created_at).toISOString(),
      updatedAt: new Date(card.updated_at).toISOString(),
      expirationDate: card.expiration_date,
      formattedExpirationDate: `${month}/${year?.slice(2)}`,
      name: card.name,
      costCenter:
        costCenter !== undefined && card.cost_center_id ? { id: card.cost_center_id, name: costCenter } : null,
      purpose: card.purpose,
      productName: card.product_name,
    };
  });
}

export async function presentCard(db: Db, card: CardRow): Promise<Card> {
  const [shown] = await presentCards(db, card.company_id, [card]);
  return shown!;
}
