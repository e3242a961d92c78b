// Sandbox funding: BRL and USD funding cards for every card type, so every company can issue.
import type { Db } from '../../db/database.js';
import type { SeedContext } from './seed-context.js';
import { addFundingCard } from '../../areas/vcn/store/funding.js';
import type { VcnType } from '../../areas/vcn/tables.js';

const TYPES: readonly VcnType[] = ['HOTEL', 'AERIAL', 'CUSTOM'];
const CURRENCIES = ['BRL', 'USD'] as const;
const LABELS: Record<VcnType, string> = {
  HOTEL: 'Corporate travel — hotels',
  AERIAL: 'Corporate travel — air',
  CUSTOM: 'Corporate purchasing',
};

export async function seedVcn(db: Db, ctx: SeedContext): Promise<void> {
  const now = ctx.clock.now();
  for (const cardType of TYPES) {
    for (const currency of CURRENCIES) {
      const last4 = String(ctx.rng.int(0, 9999)).padStart(4, '0');
      await addFundingCard(db, {
        companyId: ctx.companyId,
        cardType,
        currency,
        label: `${LABELS[cardType]} (${currency})`,
        last4,
        now,
      });
    }
  }
}
