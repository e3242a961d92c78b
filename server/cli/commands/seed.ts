import type { Command } from 'commander';
import { systemClock } from '../../lib/clock.js';
import { output, positiveInt, usingDb, withDb } from '../options.js';
import { seedCompany } from '../seed.js';
import { loadConfig } from '../../config.js';
import { resolveSecrets } from '../../areas/auth/public.js';

export function register(program: Command): void {
  withDb(program.command('seed'))
    .description('Fill a company with realistic, deterministic demo data, or (--demo) create the demo company')
    .option('--company <id>', 'company id')
    .option(
      '--demo',
      "create the demo company, its first client (secret printed once) and 2,000 transactions: the sandbox's start on an empty database, on purpose",
    )
    .option('--transactions <n>', 'banking transactions to create', positiveInt, 500)
    .option('--seed <s>', 'random seed: the same seed gives the same data', positiveInt, 1)
    .option('--json', 'print one JSON document')
    .action(
      async (opts: {
        db: string;
        company?: string;
        demo?: boolean;
        transactions: number;
        seed: number;
        json?: boolean;
      }) => {
        if (opts.demo) {
          const demo = await usingDb(
            opts.db,
            async (db) => {
              // The server's settings and stored secrets: the demo's fixtures are made through the API
              // (the server's modules load for `--demo` only, not for every `finance` command).
              const { createDemoCompany } = await import('../../sandbox/startup.js');
              const base = loadConfig(process.env);
              const config = { ...base, secrets: await resolveSecrets(db, process.env, base.secrets) };
              return createDemoCompany(db, config);
            },
            { create: true },
          );
          return output(Boolean(opts.json), { ...demo });
        }
        const companyId = opts.company;
        if (!companyId) throw new Error('give --company <id>, or --demo to create the demo company');
        const started = performance.now();
        await usingDb(opts.db, (db) =>
          seedCompany(db, {
            companyId,
            transactions: opts.transactions,
            seed: opts.seed,
            clock: systemClock,
          }),
        );
        output(Boolean(opts.json), {
          companyId,
          transactions: opts.transactions,
          seed: opts.seed,
          seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
        });
      },
    );
}
