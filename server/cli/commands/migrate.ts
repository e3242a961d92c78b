import type { Command } from 'commander';
import { describeLocation, openStore } from '../../db/store.js';
import { migrations } from '../../db/migrations/index.js';
import { migrationStatus } from '../../db/migration-status.js';
import { output, usingDb, withDb } from '../options.js';

export function register(program: Command): void {
  withDb(program.command('migrate'))
    .description(
      'Bring the database schema to the latest version (servers also do it on start; run it once before a rolling deploy)',
    )
    .option('--status', 'only show which migrations ran, are pending, or were run by a newer build')
    .option('--json', 'with --status: print one JSON document')
    .action(async (opts: { db: string; status?: boolean; json?: boolean }) => {
      if (opts.status) return status(opts.db, Boolean(opts.json));
      await usingDb(opts.db, async () => undefined);
      process.stdout.write(`${describeLocation(opts.db)}: schema up to date\n`);
    });
}

async function status(location: string, json: boolean): Promise<void> {
  const store = await openStore(location, { migrate: false, mustExist: true });
  try {
    const s = await migrationStatus(store.db as never, migrations);
    if (json) return output(true, { ...s });
    const lines = [
      `${describeLocation(location)}:`,
      ...s.applied.map((name) => `  applied  ${name}`),
      ...s.pending.map((name) => `  pending  ${name}`),
      ...s.unknown.map(
        (name) => `  newer    ${name}${s.breaking.includes(name) ? '  (breaks this build: it will not start)' : ''}`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await store.close();
  }
}
