import type { Command } from 'commander';
import { BackupByOwnToolsError, backupStore } from '../../db/sqlite-backup.js';
import { beginNewHistory } from '../../areas/statements/history.js';
import { output, usingDb, withDb } from '../options.js';

export function register(program: Command): void {
  withDb(program.command('backup'))
    .description('Copy a SQLite store while the server runs (online and consistent), verified with integrity_check')
    .requiredOption('--out <file>', 'the new backup file (must not exist)')
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; out: string; json?: boolean }) => {
      try {
        const copy = await backupStore(opts.db, opts.out);
        // The copy starts a history of its own: served in the live store's place, it refuses the
        // cursors and statement ETags the live store issued (410 / 200), however far it moves.
        // The copy is opened as it is: migrating it would make it differ from the store it copies.
        const history = await usingDb(opts.out, (db) => beginNewHistory(db, new Date()), { anySchema: true });
        output(Boolean(opts.json), { ...copy, history });
      } catch (err) {
        if (!(err instanceof BackupByOwnToolsError)) throw err;
        process.stderr.write(err.message);
        process.exit(2);
      }
    });

  withDb(program.command('mark-restored'))
    .description(
      'Give a restored store a history of its own (end of a pg_restore): the change feeds answer 410 sync_restart_required to cursors of the store it was copied from',
    )
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; json?: boolean }) => {
      const history = await usingDb(opts.db, (db) => beginNewHistory(db, new Date()));
      output(Boolean(opts.json), { db: opts.db, history });
    });
}
