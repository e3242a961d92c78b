import type { Command } from 'commander';
import { describeLocation, openStore } from '../../db/store.js';
import { migrate } from '../../db/database.js';
import { migrations } from '../../db/migrations/index.js';
import { describeMissing, missingObjects, repairObjects } from '../../db/migrations/objects.js';
import { migrationStatus } from '../../db/migration-status.js';
import { output, positiveInt, usingDb, withDb } from '../options.js';

interface MigrateOptions {
  db: string;
  status?: boolean;
  repair?: boolean;
  json?: boolean;
  lockTimeout: number;
}

export function register(program: Command): void {
  withDb(program.command('migrate'))
    .description(
      'Bring the database schema to the latest version, naming each migration it runs (servers also do it on start; run it once before a rolling deploy; the other commands refuse a store that needs it)',
    )
    .option(
      '--status',
      'only show which migrations ran, are pending, or were run by a newer build, and what they made that the database lacks (exit 1 when it lacks something)',
    )
    .option(
      '--repair',
      'then rebuild what the migrations made that the database lacks: PostgreSQL extensions, finance_fold, the word-search indexes and invalid indexes, built concurrently (writes go on)',
    )
    .option(
      '--lock-timeout <ms>',
      'PostgreSQL: how long a migration waits for a lock before it rolls back, letting the requests queued behind it through, and runs again (doubled each time, up to 5 s or this; 10 attempts)',
      positiveInt,
      1000,
    )
    .option('--json', 'with --status: print one JSON document')
    .action(async (opts: MigrateOptions) => {
      if (opts.status) return status(opts.db, Boolean(opts.json));
      await usingDb(
        opts.db,
        async (db) => {
          const applied = await migrate(db, migrations, { lockTimeoutMs: opts.lockTimeout, warnMissing: false });
          // Another process may have run some of them meanwhile: only what this one ran is named.
          for (const name of applied) process.stdout.write(`${describeLocation(opts.db)}: applied ${name}\n`);
          const rebuilt = opts.repair ? await repairObjects(db) : [];
          for (const object of rebuilt) process.stdout.write(`rebuilt ${object}\n`);
          const missing = await missingObjects(db, Object.keys(migrations));
          if (missing.length === 0) {
            if (applied.length === 0) process.stdout.write(`${describeLocation(opts.db)}: schema up to date\n`);
            return;
          }
          process.stderr.write(
            `${describeLocation(opts.db)}:\n${missing.map((m) => `  ${describeMissing(m)}\n`).join('')}`,
          );
          process.exitCode = 1;
        },
        { anySchema: true },
      );
    });
}

async function status(location: string, json: boolean): Promise<void> {
  const store = await openStore(location, { migrate: false, mustExist: true });
  try {
    const s = await migrationStatus(store.db as never, migrations);
    const missing = await missingObjects(store.db, s.applied);
    if (missing.length > 0) process.exitCode = 1;
    if (json) return output(true, { ...s, missing });
    const lines = [
      `${describeLocation(location)}:`,
      ...s.applied.map((name) => `  applied  ${name}`),
      ...s.pending.map((name) => `  pending  ${name}`),
      ...s.unknown.map(
        (name) => `  newer    ${name}${s.breaking.includes(name) ? '  (breaks this build: it will not start)' : ''}`,
      ),
      ...missing.map((object) => `  ${describeMissing(object)}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await store.close();
  }
}
