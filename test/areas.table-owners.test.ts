// Each table has one owner, which declares it in its tables.ts (`export interface …Tables { table: Row; … }`):
// an area (server/areas/<area>/tables.ts), the idempotency store (server/idempotency/tables.ts) or the
// rate limit (server/http/ops/rate-limit-tables.ts); server/schema.ts joins them into the `Database` type.
// Another area reaches a table through the owner's public module (server/areas/<owner>/public.ts): the
// import rules (.dependency-cruiser.cjs) check the imports, but they cannot see a table named in a
// query, so the second part of this test reads the sources for table names. server/db/ is plumbing:
// only its migrations name tables.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../server/db/store.js';
import { freshDatabase } from './support/database.js';

/** The owners' declarations of tables: owner → its tables.ts. */
const declarations = (): Map<string, string> => {
  const out = new Map<string, string>();
  for (const area of readdirSync('server/areas')) out.set(area, join('server/areas', area, 'tables.ts'));
  out.set('idempotency', 'server/idempotency/tables.ts');
  out.set('http', 'server/http/ops/rate-limit-tables.ts');
  return out;
};

/** The tables each owner declares, read from the interface members of its tables.ts. */
function declared(): [table: string, owner: string][] {
  const out: [string, string][] = [];
  for (const [owner, file] of declarations()) {
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const [, body] of source.matchAll(/export interface \w+Tables[^{]*\{([^}]*)\}/g))
      for (const [, table] of body!.matchAll(/^ {2}(\w+):/gm)) out.push([table!, owner]);
  }
  return out;
}

/** table → owner. */
const owners = () => new Map(declared());

/**
 * Where a file's queries belong: its area, or the top folder under server/ (http, idempotency, cli, …).
 * sandbox/ may name any table: the demo data and the simulated outside world fill every area (absent in
 * production); so may db/migrations/, which creates them.
 */
const placeOf = (file: string) => {
  const [, top, area] = file.split('/');
  return top === 'areas' ? area! : top!.replace(/\.ts$/, '');
};

/** Reads across owners that stay where they are, each with its reason. */
const ALLOWED = new Set([
  // One statement per statement page: the row's user address is joined with the directory's names.
  'server/areas/directory/references.ts users',
  // The claim joins each delivery's event type, in the statement that claims it.
  'server/areas/webhooks/queue.ts events',
  // The name of a command, not a table.
  'server/cli/commands/events.ts events',
  'server/cli/commands/cards.ts cards',
  'server/cli/program.ts cards',
  'server/cli/program.ts events',
  // The names of MCP tool groups, not tables.
  'server/mcp/groups.ts cards',
  'server/mcp/groups.ts events',
  'server/mcp/groups.ts users',
]);

/** The other owners' tables `source` (the text of `file`) names in a string: 'users', 'users as u', 'users.email'. */
function usesIn(file: string, source: string, owner: Map<string, string>): string[] {
  const place = placeOf(file);
  const uses = new Set<string>();
  for (const [, table] of source.matchAll(/'([a-z_]+)(?: as \w+|\.\w+)?'/g)) {
    const area = owner.get(table!);
    if (area !== undefined && area !== place && declarations().get(area) !== file) uses.add(`${file} ${table}`);
  }
  return [...uses];
}

function crossOwnerUses(): string[] {
  const owner = owners();
  return readdirSync('server', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.startsWith('db/migrations/') && !f.startsWith('sandbox/'))
    .filter((f) => f !== 'schema.ts')
    .map((f) => join('server', f))
    .flatMap((file) => usesIn(file, readFileSync(file, 'utf8'), owner))
    .filter((use) => !ALLOWED.has(use))
    .sort();
}

describe('table ownership', () => {
  it('when the owners declare their tables, then each table of the migrated database has exactly one owner', async () => {
    const store = await openStore(await freshDatabase());
    try {
      const tables = (await store.db.introspection.getTables())
        .map((t) => t.name)
        .filter((name) => !name.startsWith('kysely_'))
        // SQLite's full-text tables of the statements' search (migration 0020) and their shadow
        // tables: no query names them but server/db/dialect.ts's documentHolds, given their names.
        .filter((name) => !/^(banking|credit_card)_search(_(data|idx|content|docsize|config))?$/.test(name))
        .sort();
      const pairs = declared();
      const names = pairs.map(([table]) => table).sort();
      expect(new Set(names).size, 'a table declared by two owners').toBe(names.length);
      expect(names).toEqual(tables);
    } finally {
      await store.close();
    }
  });

  it("when a file outside an owner names one of the owner's tables in a query, then the check finds it", () => {
    const owner = owners();
    const query =
      "db.selectFrom('vcns as v').innerJoin('companies as c', 'c.id', 'v.company_id').select('users.email')";
    expect(usesIn('server/areas/vcn/store/expiry.ts', query, owner)).toEqual([
      'server/areas/vcn/store/expiry.ts companies',
      'server/areas/vcn/store/expiry.ts users',
    ]);
    expect(usesIn('server/http/ops/metrics.ts', "db.selectFrom('ingest_runs')", owner)).toEqual([
      'server/http/ops/metrics.ts ingest_runs',
    ]);
    expect(usesIn('server/db/outage-log.ts', "db.selectFrom('events')", owner)).toEqual([
      'server/db/outage-log.ts events',
    ]);
    expect(usesIn('server/areas/directory/store/list.ts', "db.selectFrom('cost_centers')", owner)).toEqual([]);
    expect(usesIn('server/http/ops/rate-limit-store.ts', "db.selectFrom('rate_limit_windows')", owner)).toEqual([]);
  });

  it("when the sources are read, then no file names another owner's table: it goes through the owner's public module", () => {
    expect(crossOwnerUses()).toEqual([]);
  });
});
