// Realistic, deterministic demo data for one company: every area's seeder, in dependency order.
import { createHash } from 'node:crypto';
import cliProgress from 'cli-progress';
import { companyTimeZone } from '../areas/auth/company-zone.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { createRng } from '../lib/random.js';
import type { SeedContext } from '../sandbox/seed/seed-context.js';
import { seedDirectory } from '../sandbox/seed/directory.js';
import { seedUsers } from '../sandbox/seed/users.js';
import { seedStatements } from '../sandbox/seed/statements.js';
import { seedVcn } from '../sandbox/seed/vcn.js';

interface SeedOptions {
  companyId: string;
  transactions: number;
  seed: number;
  clock: Clock;
}

/**
 * The random source of one company's data: the same `--seed` on the same company gives the same
 * data, and two companies seeded with one number still get distinct identifiers.
 */
const companyRng = (seed: number, companyId: string) =>
  createRng(createHash('sha256').update(`${seed}:${companyId}`).digest().readUInt32BE(0));

/** Seeds a company, showing a progress bar when stderr is a terminal. */
export async function seedCompany(db: Db, options: SeedOptions): Promise<void> {
  if ((await companyTimeZone(db, options.companyId)) === undefined) throw new Error(`no company ${options.companyId}`);
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        {
          stream: process.stderr,
          format: 'seeding {bar} {percentage}% | {value}/{total} transactions | {eta_formatted} left',
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const ctx: SeedContext = {
    companyId: options.companyId,
    rng: companyRng(options.seed, options.companyId),
    clock: options.clock,
    transactions: options.transactions,
    onProgress: bar
      ? (done, total) => {
          if (bar.getTotal() !== total) bar.start(total, done);
          bar.update(done);
        }
      : undefined,
  };
  try {
    await seedDirectory(db, ctx);
    await seedUsers(db, ctx);
    await seedStatements(db, ctx);
    await seedVcn(db, ctx);
  } finally {
    bar?.stop();
  }
}
