import type { Command } from 'commander';
import { describeLocation, openStore } from '../../db/store.js';
import { migrations } from '../../db/migrations/index.js';
import { migrationStatus } from '../../db/migration-status.js';
import { migrate } from '../../db/database.js';
import { output, usingDb, withDb } from '../options.js';

export function register(program: Command): void {
  withDb(program.command('migrate'))
    .description(
      'Bring the database schema to the latest version, naming each migration it runs (servers also do it on start; run it once before a rolling deploy; the other commands refuse a store that needs it)',
    )
    .option('--status', 'only show which migrations ran, are pending, or were run by a newer build')
    .option('--json', 'with --status: print one JSON document')
    .action(async (opts: { db: string; status?: boolean; json?: boolean }) => {
      if (opts.status) return status(opts.db, Boolean(opts.json));
      const applied = await usingDb(opts.db, (db) => migrate(db), { anySchema: true });
      const where = describeLocation(opts.db);
      // Another process may have run some of them meanwhile: only what this one ran is named.
      const lines = applied.length === 0 ? ['schema up to date'] : applied.map((name) => `applied ${name}`);
      process.stdout.write(lines.map((line) => `${where}: ${line}\n`).join(''));
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
