import type { Command } from 'commander';
import { BackupByOwnToolsError, backupStore } from '../../db/sqlite-backup.js';
import { output, withDb } from '../options.js';

export function register(program: Command): void {
  withDb(program.command('backup'))
    .description('Copy a SQLite store while the server runs (online and consistent), verified with integrity_check')
    .requiredOption('--out <file>', 'the new backup file (must not exist)')
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; out: string; json?: boolean }) => {
      try {
        output(Boolean(opts.json), { ...(await backupStore(opts.db, opts.out)) });
      } catch (err) {
        if (!(err instanceof BackupByOwnToolsError)) throw err;
        process.stderr.write(err.message);
        process.exit(2);
      }
    });
}
