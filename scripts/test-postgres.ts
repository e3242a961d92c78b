// `npm run test:pg`: the whole suite on PostgreSQL (TEST_DATABASE=postgres). The server comes from
// TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres). When it cannot be
// reached the run fails under CI (CI set) and is skipped, loudly, on a developer's machine.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const url = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function reachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const problem = await reachable();
if (problem) {
  const message = `PostgreSQL is not reachable at ${url}: ${problem}`;
  if (process.env.CI) {
    process.stderr.write(`test:pg: ${message}\n`);
    process.exit(1);
  }
  process.stderr.write(`test:pg: SKIPPED — ${message} (set TEST_POSTGRES_URL; under CI this fails)\n`);
  process.exit(0);
}

// Files that never reach the store the run chose (the contract's own checks, the packed client, the
// docs page, the validator against its stock self, the code's own rules, the settings, the webhook
// signature helper, the MCP tool catalog read from the contract; the shutdown test runs a SQLite
// sandbox of its own), or whose outcome the store
// cannot change (the client's retries against faults in its transport, the address `serve` listens on,
// a flood of Content-Type values against the validator's caches, LibreOffice opening the CSV exports:
// their bytes on each store are pinned by statements.exports-csv, which runs on both; Prism reading the
// contract in front of the server: every test server checks its own answers against the contract on
// both stores; `finance mcp` on stdio, a client of the server over HTTP: its tools on each store are
// mcp.http's), run once, in the SQLite pass.
const storeFree = [
  'test/contract.diff.test.ts',
  'test/contract.bundles.test.ts',
  'test/contract.coverage.test.ts',
  'test/client.package.test.ts',
  'test/client.webhooks.test.ts',
  'test/docs.*.test.ts',
  'test/http.validator-equivalence.test.ts',
  'test/http.response-validation.test.ts',
  'test/code.rules.test.ts',
  'test/areas.table-owners.test.ts',
  'test/config.settings.test.ts',
  'test/engines.test.ts',
  'test/mcp.catalog.test.ts',
  'test/server.shutdown.test.ts',
  'test/client.retries.test.ts',
  'test/cli.serve-host.test.ts',
  'test/http.hostile-inputs.content-type.test.ts',
  'test/statements.exports-spreadsheet.test.ts',
  'test/contract.prism.test.ts',
  'test/mcp.stdio.test.ts',
];
// The load tests time the server's answers, so they run apart from the rest, one file at a time: what
// they measure is the service under its own load, not a neighbouring test file's. First, as in
// `test:sqlite`: the rest's databases are dropped once it ends, and each DROP DATABASE makes the
// server checkpoint at once (~150 of them), which would run beside the load tests were they after it.
const LOAD_TESTS = 'test/scale.*.test.ts';
const vitest = (args: string[]) =>
  spawnSync('npx', ['vitest', 'run', ...args], { stdio: 'inherit', env: { ...process.env, TEST_DATABASE: 'postgres' } })
    .status ?? 1;
const given = process.argv.slice(2);
const status =
  given.length > 0
    ? vitest(given)
    : vitest(['--no-file-parallelism', 'test/scale.']) ||
      vitest([...[...storeFree, LOAD_TESTS].flatMap((glob) => ['--exclude', glob])]);
process.exit(status);
