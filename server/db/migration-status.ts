// Which migrations a database has run, against the ones this build knows. Migrations only expand
// the schema (new tables, columns with defaults, indexes), so an older build can serve a database a
// newer build migrated: a rollback is a redeploy of the previous build. A migration that would break
// older builds (dropping or renaming what they read) says so in its name, ending in `_breaking`;
// a build that does not know such a migration refuses to start.
import { sql, type Kysely, type Migration } from 'kysely';

const BREAKING_SUFFIX = '_breaking';

interface MigrationStatus {
  /** Known and run. */
  applied: string[];
  /** Known, not run yet. */
  pending: string[];
  /** Run by a newer build, unknown to this one. */
  unknown: string[];
  /** The unknown ones marked as breaking older builds. */
  breaking: string[];
}

/** Names of the migrations the database has run (none on a fresh database). */
async function executed(db: Kysely<unknown>): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    return rows.map((r) => r.name);
  } catch (err) {
    if (/kysely_migration/.test(String((err as Error).message))) return [];
    throw err;
  }
}

export async function migrationStatus(db: Kysely<unknown>, known: Record<string, Migration>): Promise<MigrationStatus> {
  const ran = await executed(db);
  const names = Object.keys(known).sort();
  const unknown = ran.filter((name) => !(name in known));
  return {
    applied: names.filter((name) => ran.includes(name)),
    pending: names.filter((name) => !ran.includes(name)),
    unknown,
    breaking: unknown.filter((name) => name.endsWith(BREAKING_SUFFIX)),
  };
}

/** Kysely refuses a database with migrations it is not given: the unknown ones are given as done. */
export const withUnknown = (known: Record<string, Migration>, unknown: string[]): Record<string, Migration> => ({
  ...known,
  ...Object.fromEntries(unknown.map((name) => [name, { up: async () => undefined }])),
});
