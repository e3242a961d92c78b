import type { Command } from 'commander';
import { describeLocation } from '../../db/store.js';
import { usingDb, withDb } from '../options.js';

export function register(program: Command): void {
  withDb(program.command('migrate'))
    .description(
      'Bring the database schema to the latest version (servers also do it on start; run it once before a rolling deploy)',
    )
    .action(async (opts: { db: string }) => {
      await usingDb(opts.db, async () => undefined);
      process.stdout.write(`${describeLocation(opts.db)}: schema up to date\n`);
    });
}
