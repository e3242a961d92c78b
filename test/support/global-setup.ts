// Runs once per vitest run. It builds dist/ when a source is newer than it: tests that run the `finance` command run
// the compiled JavaScript, as production does. It builds the docs pages (as `npm run build:docs`) when one is older
// than what it is built from: the docs tests read them, every server serves them, and a sandbox process would build
// them itself when they are missing (on a fresh checkout, each of the run's first files and processes at once).
// On PostgreSQL (TEST_DATABASE=postgres): the server must be reachable —
// under CI an unreachable server fails the run rather than skipping it — and every database the
// run created is dropped once it ends, by a process it leaves to do that (and leftovers of runs
// interrupted over two hours ago, before it starts). The run's
// template, migrated once here, is what each test server's database is copied from.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { buildServer, distIsFresh } from '../../scripts/build-server.js';
import { buildStaleDocs } from '../../scripts/docs.js';
import {
  createPostgresTemplate,
  dropDatabases,
  onPostgres,
  POSTGRES_ADMIN_URL,
  runPrefix,
  TEST_DATABASE_PREFIX,
} from './database.js';

const STALE_SECONDS = 2 * 3600;

/** Type errors are `npm run typecheck`'s to report: the build transpiles (scripts/build-server.ts). */
export async function setup(): Promise<void> {
  await Promise.all([distIsFresh() ? undefined : buildServer(), buildStaleDocs()]);
  if (!onPostgres) return;
  // Not FINANCE_…: a server process the tests start would warn about an unknown FINANCE_ variable.
  process.env.TEST_DATABASE_RUN = `${Math.floor(Date.now() / 1000)}_${randomBytes(3).toString('hex')}`;
  const now = Date.now() / 1000;
  try {
    await dropDatabases((name) => now - Number(name.slice(TEST_DATABASE_PREFIX.length).split('_')[0]) > STALE_SECONDS);
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (set TEST_POSTGRES_URL): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  await createPostgresTemplate();
}

/** The run's databases are dropped by a process left to do it (test/support/drop-databases.ts): nothing waits for it. */
export async function teardown(): Promise<void> {
  if (!onPostgres) return;
  const dropper = spawn(process.execPath, ['--import', 'tsx', 'test/support/drop-databases.ts', runPrefix()], {
    detached: true,
    stdio: 'ignore',
  });
  dropper.unref();
}
