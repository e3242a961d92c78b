// What the statement generators share: the company's people and classifications, and helpers to draw from them.
import type { Rng } from '../../../lib/random.js';
import type { SeedPools } from './support.js';

export interface Card {
  id: string;
  last4: string;
  holder: { id: string; name: string } | null;
  bearer: string;
}

export interface Generator {
  rng: Rng;
  companyId: string;
  pools: SeedPools;
  cards: Card[];
  now: Date;
}

export const NOTES = [
  'Reembolso aprovado pelo gestor',
  'Almoço com cliente',
  'Viagem comercial',
  'Conferir nota fiscal',
  'Evento de lançamento',
  'Treinamento da equipe',
  'Assinatura anual',
  'Despesa do projeto Atlas',
  'Aguardando comprovante',
  'Rateio entre áreas',
];

/** A company category for about a third of the rows, a cost center for about 40%. */
export function classification(g: Generator) {
  const { rng, pools } = g;
  return {
    custom_category_id: pools.categoryIds.length > 0 && rng.chance(0.35) ? rng.pick(pools.categoryIds) : null,
    cost_center_id: pools.costCenterIds.length > 0 && rng.chance(0.4) ? rng.pick(pools.costCenterIds) : null,
  };
}

/** Status 1/2/3 in plausible proportions: recent movements are more often pending. */
export function status(g: Generator, at: number): 1 | 2 | 3 {
  const ageDays = (g.now.getTime() - at) / 86_400_000;
  const r = g.rng.next();
  if (ageDays < 3) return r < 0.45 ? 3 : r < 0.48 ? 1 : 2;
  return r < 0.03 ? 1 : r < 0.035 ? 3 : 2;
}

/** Reconciled: most processed movements older than a month, few recent ones. */
export function conciled(g: Generator, at: number, st: number): number {
  if (st !== 2) return 0;
  const ageDays = (g.now.getTime() - at) / 86_400_000;
  return g.rng.chance(ageDays > 30 ? 0.75 : 0.2) ? 1 : 0;
}

/** `count` instants spread over the last `days` days, oldest first, during business-ish hours. */
export function instants(g: Generator, count: number, days: number): number[] {
  const end = g.now.getTime();
  const out = Array.from({ length: count }, () => {
    const day = Math.floor(end / 86_400_000) - g.rng.int(0, days);
    const hour = g.rng.int(10, 26); // 07:00 to 23:59 in UTC-3
    return Math.min(end - 60_000, day * 86_400_000 + hour * 3_600_000 + g.rng.int(0, 3_599) * 1000);
  });
  return out.sort((a, b) => a - b);
}

export const rate = (g: Generator) => Math.round((4.9 + g.rng.next() * 0.9) * 10_000) / 10_000;
