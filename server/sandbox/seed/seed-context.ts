import type { Clock } from '../../lib/clock.js';
import type { Rng } from '../../lib/random.js';

/** What every area's seeder receives from `finance seed`. */
export interface SeedContext {
  companyId: string;
  rng: Rng;
  clock: Clock;
  /** How many banking transactions to create (credit-card transactions scale with it). */
  transactions: number;
  onProgress?: (done: number, total: number) => void;
}
