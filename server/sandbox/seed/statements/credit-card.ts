// Credit-card statement records: purchases in reais and abroad (amount, currency, rate, IOF), some in
// installments (one record per installment, each on its bill).
import type { NewCreditCardTransaction } from '../../../areas/statements/tables.js';
import { FOREIGN_MERCHANTS, IOF_FOREIGN_PURCHASE, MCCS, mccByCode } from './catalog.js';
import { billDueDate } from '../../../areas/statements/bills/cycle.js';
import { localDate } from '../../../lib/time.js';
import { classification, conciled, NOTES, rate, status, type Generator } from './context.js';
import { seededUlid } from './ids.js';

/** The records of one purchase made at `at` (several when paid in installments). */
export function creditCardRows(g: Generator, at: number, timeZone: string): NewCreditCardTransaction[] {
  const { rng } = g;
  const card = rng.pick(g.cards);
  const st = status(g, at);
  const foreign = rng.chance(0.08);
  let merchant: string;
  let mcc: NonNullable<ReturnType<typeof mccByCode>>;
  let amount: number;
  let brl: number;
  let iof = 0;
  let exchangeRate: number | null = null;
  if (foreign) {
    const m = rng.pick(FOREIGN_MERCHANTS);
    merchant = m.name;
    mcc = mccByCode(m.mcc)!;
    amount = rng.int(m.range[0], m.range[1]);
    exchangeRate = rate(g);
    const converted = Math.round(amount * exchangeRate);
    iof = Math.round(converted * IOF_FOREIGN_PURCHASE);
    brl = converted + iof;
  } else {
    mcc = rng.pick(MCCS);
    merchant = rng.pick(mcc.merchants);
    amount = rng.int(mcc.range[0], mcc.range[1]);
    brl = amount;
  }
  const installments = !foreign && amount > 60_000 && rng.chance(0.3) ? rng.int(2, 10) : 1;
  const day = localDate(new Date(at), timeZone);
  const shared = {
    company_id: g.companyId,
    card_id: card.id,
    final_card_number: card.last4,
    bearer_name: card.bearer,
    transaction_date: new Date(at).toISOString(),
    merchant_name: merchant,
    mcc_code: mcc.code,
    category_code: mcc.category.code,
    category_description: mcc.category.description,
    currency: foreign ? 'USD' : 'BRL',
    exchange_rate: exchangeRate,
    status: st,
    user_id: card.holder?.id ?? null,
    has_attachments: 0,
    created_at: g.now.toISOString(),
  };
  const klass = classification(g);
  const notes = rng.chance(0.08) ? rng.pick(NOTES) : '';
  return Array.from({ length: installments }, (_, i) => {
    // Installments split the amount; the first one absorbs the rounding remainder.
    const part = (total: number) => Math.floor(total / installments) + (i === 0 ? total % installments : 0);
    const isConciled = conciled(g, at + i * 30 * 86_400_000, st);
    return {
      ...shared,
      ...klass,
      notes,
      id: seededUlid(rng, at),
      description:
        installments > 1
          ? `${merchant} ${String(i + 1).padStart(2, '0')}/${String(installments).padStart(2, '0')}`
          : merchant,
      amount_minor: part(amount),
      brl_amount_minor: part(brl),
      iof_amount_minor: part(iof),
      installment_number: installments > 1 ? i + 1 : null,
      installment_total: installments > 1 ? installments : null,
      bill_due_date: billDueDate(day, i + 1),
      conciled: isConciled,
      conciled_at: isConciled ? new Date(at + 3 * 86_400_000).toISOString() : null,
    };
  });
}
