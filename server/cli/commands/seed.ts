import type { Command } from 'commander';
import { systemClock } from '../../lib/clock.js';
import { output, positiveInt, usingDb, withDb } from '../options.js';
import { seedCompany } from '../seed.js';

export function register(program: Command): void {
  withDb(program.command('seed'))
    .description('Fill a company with realistic, deterministic demo data')
    .requiredOption('--company <id>', 'company id')
    .option('--transactions <n>', 'banking transactions to create', positiveInt, 500)
    .option('--seed <s>', 'random seed: the same seed gives the same data', positiveInt, 1)
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; company: string; transactions: number; seed: number; json?: boolean }) => {
      const started = performance.now();
      await usingDb(opts.db, (db) =>
        seedCompany(db, {
          companyId: opts.company,
          transactions: opts.transactions,
          seed: opts.seed,
          clock: systemClock,
        }),
      );
      output(Boolean(opts.json), {
        companyId: opts.company,
        transactions: opts.transactions,
        seed: opts.seed,
        seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
      });
    });
}
