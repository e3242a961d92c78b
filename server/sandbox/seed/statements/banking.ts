// Banking statement rows: card purchases (some abroad, in USD with exchange rate and IOF), PIX and
// TED transfers, bill payments, fees and refunds.
import type { NewBankingTransaction } from '../../../areas/statements/tables.js';
import {
  COUNTERPARTS,
  CATEGORIES,
  FOREIGN_MERCHANTS,
  IOF_FOREIGN_PURCHASE,
  MCCS,
  PLACES,
  TRANSACTION_TYPES,
  mccByCode,
  type TransactionType,
} from './catalog.js';
import { classification, conciled, NOTES, rate, status, type Generator } from './context.js';

const TYPES: Array<[number, keyof typeof TRANSACTION_TYPES]> = [
  [0.55, 'cardPurchase'],
  [0.04, 'internationalPurchase'],
  [0.14, 'pixSent'],
  [0.1, 'pixReceived'],
  [0.05, 'tedReceived'],
  [0.08, 'billPayment'],
  [0.02, 'fee'],
  [0.02, 'refund'],
];

function pickType(g: Generator): TransactionType {
  let r = g.rng.next();
  for (const [p, key] of TYPES) {
    if ((r -= p) < 0) return TRANSACTION_TYPES[key];
  }
  return TRANSACTION_TYPES.cardPurchase;
}

export function bankingRow(
  g: Generator,
  at: number,
  accountFor: (type: TransactionType) => number,
  purchaseEvent: number,
): NewBankingTransaction {
  const { rng, pools } = g;
  const type = pickType(g);
  const st = status(g, at);
  const user = pools.users.length > 0 && rng.chance(0.85) ? rng.pick(pools.users) : null;
  const base = {
    company_id: g.companyId,
    account_id: accountFor(type),
    transaction_type_id: type.id,
    transaction_type_description: type.description,
    transaction_type_icon: type.icon,
    sub_type: type.subType,
    status: st,
    transaction_date: new Date(at).toISOString(),
    usd_amount_minor: null,
    usd_exchange_rate: null,
    usd_exchange_rate_date: null,
    iof_amount_minor: 0,
    fee_service_amount_minor: 0,
    final_card_number: null,
    bearer_name: null,
    mcc_code: null,
    mcc_group: null,
    mcc_description: null,
    id_purchase_event: null,
    place_establishment: null,
    notes: rng.chance(0.1) ? rng.pick(NOTES) : '',
    conciled: conciled(g, at, st),
    conciled_at: null,
    user_id: user?.id ?? null,
    requester_user_id: null,
    has_attachments: 0,
    created_at: g.now.toISOString(),
    ...classification(g),
  };
  const withConciledAt = <T extends { conciled: number }>(row: T) => ({
    ...row,
    conciled_at: row.conciled ? new Date(at + 2 * 86_400_000).toISOString() : null,
  });

  if (
    type === TRANSACTION_TYPES.cardPurchase ||
    type === TRANSACTION_TYPES.internationalPurchase ||
    type === TRANSACTION_TYPES.refund
  ) {
    const card = rng.pick(g.cards);
    const cardFields = {
      final_card_number: card.last4,
      bearer_name: card.bearer,
      user_id: card.holder?.id ?? null,
      id_purchase_event: purchaseEvent,
    };
    if (type === TRANSACTION_TYPES.internationalPurchase) {
      const m = rng.pick(FOREIGN_MERCHANTS);
      const mcc = mccByCode(m.mcc)!;
      const usd = rng.int(m.range[0], m.range[1]);
      const r = rate(g);
      const brl = Math.round(usd * r);
      const iof = Math.round(brl * IOF_FOREIGN_PURCHASE);
      return withConciledAt({
        ...base,
        ...cardFields,
        brl_amount_minor: brl,
        usd_amount_minor: usd,
        usd_exchange_rate: r,
        usd_exchange_rate_date: new Date(Math.floor(at / 86_400_000) * 86_400_000 + 3 * 3_600_000).toISOString(),
        iof_amount_minor: iof,
        total_amount_minor: brl + iof,
        mcc_code: mcc.code,
        mcc_group: mcc.group,
        mcc_description: mcc.description,
        source_destination_name: m.name,
        place_establishment: m.place,
        description: `${m.name} USD ${(usd / 100).toFixed(2)}`,
        category_code: mcc.category.code,
        category_description: mcc.category.description,
      });
    }
    const mcc = rng.pick(MCCS);
    const merchant = rng.pick(mcc.merchants);
    const brl = rng.int(mcc.range[0], mcc.range[1]);
    const refund = type === TRANSACTION_TYPES.refund;
    return withConciledAt({
      ...base,
      ...cardFields,
      brl_amount_minor: brl,
      total_amount_minor: brl,
      mcc_code: mcc.code,
      mcc_group: mcc.group,
      mcc_description: mcc.description,
      source_destination_name: merchant,
      place_establishment: rng.pick(PLACES),
      description: refund ? `ESTORNO ${merchant}` : merchant,
      category_code: mcc.category.code,
      category_description: mcc.category.description,
    });
  }

  const requester = pools.users.length > 0 ? rng.pick(pools.users).id : null;
  const transfer = (
    name: string,
    range: [number, number],
    category: { code: string; description: string },
    description: string,
    fee = 0,
  ) => {
    const brl = rng.int(range[0], range[1]);
    return withConciledAt({
      ...base,
      brl_amount_minor: brl,
      fee_service_amount_minor: fee,
      total_amount_minor: brl + fee,
      source_destination_name: name,
      description,
      category_code: category.code,
      category_description: category.description,
      requester_user_id: type.subType === 'DEBIT' ? requester : null,
    });
  };
  switch (type) {
    case TRANSACTION_TYPES.pixSent: {
      const name = rng.pick(COUNTERPARTS.suppliers);
      return transfer(name, [5_000, 1_500_000], CATEGORIES.TRANSFERS, `PIX enviado - ${name}`);
    }
    case TRANSACTION_TYPES.pixReceived: {
      const name = rng.pick(COUNTERPARTS.customers);
      return transfer(name, [10_000, 1_200_000], CATEGORIES.INCOME, `PIX recebido - ${name}`);
    }
    case TRANSACTION_TYPES.tedReceived: {
      const name = rng.pick(COUNTERPARTS.customers);
      return transfer(name, [100_000, 3_000_000], CATEGORIES.INCOME, `TED recebida - ${name}`);
    }
    case TRANSACTION_TYPES.billPayment: {
      const name = rng.pick(COUNTERPARTS.billers);
      return transfer(
        name,
        [8_000, 2_500_000],
        CATEGORIES.BILLS,
        `Pagamento de boleto - ${name}`,
        rng.chance(0.3) ? 350 : 0,
      );
    }
    default:
      return transfer(
        'BANCO',
        [990, 8_900],
        CATEGORIES.FEES,
        rng.pick(['Tarifa pacote de serviços', 'Tarifa TED', 'Tarifa emissão de boleto']),
      );
  }
}
