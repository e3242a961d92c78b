// An online backup of a SQLite store: SQLite's backup API (better-sqlite3 `backup()`) copies the
// pages while the server keeps reading and writing (a write during the copy makes it start over
// from a consistent state), into a temporary file that becomes `out` only once `integrity_check`
// passes on it. Copying the file itself is not a backup: in WAL mode the recent writes live in the
// `-wal` file, and a copy taken mid-write is torn. The copy is private to its owner (mode 0600).
import SQLite from 'better-sqlite3';
import { chmodSync, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { describeLocation, isPostgresUrl } from './store.js';

interface BackupResult {
  out: string;
  bytes: number;
  pages: number;
  integrity: 'ok';
}

const POSTGRES_ADVICE = `PostgreSQL is backed up by PostgreSQL's own tools, not by finance:
  - a logical copy, readable by its owner only:
      (umask 077 && pg_dump --format=custom --file finance.dump "$DATABASE_URL")
    restored, with the service stopped, by:
      pg_restore --clean --if-exists --single-transaction --dbname "$DATABASE_URL" finance.dump
      npx finance mark-restored --db "$DATABASE_URL"
      npx finance migrate --status --db "$DATABASE_URL"
  - point-in-time recovery: continuous WAL archiving (archive_mode, archive_command) plus a base
    backup (pg_basebackup), or your provider's automated backups and PITR.
See docs/operating.md.
`;

/** A store that `finance backup` does not copy; the message says how it is backed up instead. */
export class BackupByOwnToolsError extends Error {
  constructor(location: string) {
    super(`${describeLocation(location)}: ${POSTGRES_ADVICE}`);
    this.name = 'BackupByOwnToolsError';
  }
}

/** `finance backup`: a SQLite store is copied online; a PostgreSQL one throws BackupByOwnToolsError. */
export function backupStore(location: string, out: string): Promise<BackupResult> {
  if (isPostgresUrl(location)) throw new BackupByOwnToolsError(location);
  return backupSqlite(location, out);
}

async function backupSqlite(source: string, out: string): Promise<BackupResult> {
  if (!existsSync(source)) throw new Error(`no database at ${source}`);
  if (existsSync(out)) throw new Error(`${out} exists; give a new file name`);
  const partial = `${out}.partial`;
  rmSync(partial, { force: true });
  // The copy holds every secret of the store: readable by its owner only from its first byte (an
  // empty file is an empty database to SQLite, and its journal files take the file's mode).
  writeFileSync(partial, '', { mode: 0o600, flag: 'wx' });
  const db = new SQLite(source, { fileMustExist: true, timeout: 5000 });
  try {
    const { totalPages } = await db.backup(partial);
    const copy = new SQLite(partial);
    try {
      const problems = copy.pragma('integrity_check', { simple: false }) as Array<{ integrity_check: string }>;
      const report = problems.map((p) => p.integrity_check);
      if (report.length !== 1 || report[0] !== 'ok') {
        throw new Error(`the copy failed integrity_check: ${report.slice(0, 5).join('; ')}`);
      }
      // One file, nothing pending in a write-ahead log: restorable by copying it alone.
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    chmodSync(partial, 0o600);
    renameSync(partial, out);
    return { out, bytes: statSync(out).size, pages: totalPages, integrity: 'ok' };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
}
