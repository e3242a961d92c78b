import type { Command } from 'commander';
import { describeLocation, isPostgresUrl } from '../../db/store.js';
import { backupSqlite } from '../../db/sqlite-backup.js';
import { output, withDb } from '../options.js';

const POSTGRES_ADVICE = `PostgreSQL is backed up by PostgreSQL's own tools, not by finance:
  - a logical copy: pg_dump --format=custom --file finance.dump "$DATABASE_URL"
    (restore: pg_restore --clean --if-exists --dbname "$DATABASE_URL" finance.dump)
  - point-in-time recovery: continuous WAL archiving (archive_mode, archive_command) plus a base
    backup (pg_basebackup), or your provider's automated backups and PITR.
See docs/operating.md.
`;

export function register(program: Command): void {
  withDb(program.command('backup'))
    .description('Copy a SQLite store while the server runs (online and consistent), verified with integrity_check')
    .requiredOption('--out <file>', 'the new backup file (must not exist)')
    .option('--json', 'print one JSON document')
    .action(async (opts: { db: string; out: string; json?: boolean }) => {
      if (isPostgresUrl(opts.db)) {
        process.stderr.write(`${describeLocation(opts.db)}: ${POSTGRES_ADVICE}`);
        process.exit(2);
      }
      const result = await backupSqlite(opts.db, opts.out);
      output(Boolean(opts.json), { ...result });
    });
}
