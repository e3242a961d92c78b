// Each table belongs to the area whose tables.ts declares it. Another area, the HTTP layer or the
// command line reaches it through a function of the owning area or a named module in server/db/
// (references.ts, company-zone.ts, reclassify.ts, …), never by naming the table in its own queries: the import rules
// (.dependency-cruiser.cjs) cannot see SQL, so this test reads the sources for table names.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** table → owning area, from `export interface …Tables { table: Row; … }` in server/areas/<area>/tables.ts. */
function owners(): Map<string, string> {
  const out = new Map<string, string>();
  for (const area of readdirSync('server/areas')) {
    let source: string;
    try {
      source = readFileSync(join('server/areas', area, 'tables.ts'), 'utf8');
    } catch {
      continue;
    }
    for (const [, body] of source.matchAll(/export interface \w+Tables[^{]*\{([^}]*)\}/g))
      for (const [, table] of body!.matchAll(/^ {2}(\w+):/gm)) out.set(table!, area);
  }
  return out;
}

/**
 * Where a file's queries belong: its area, or the top folder under server/. db/ may name any table,
 * and so may sandbox/: the demo data and the simulated outside world fill every area (absent in production).
 */
const placeOf = (file: string) => {
  const [, top, area] = file.split('/');
  return top === 'areas' ? area! : top!.replace(/\.ts$/, '');
};

/** The other areas' tables `source` (the text of `file`) names in a string: 'users', 'users as u', 'users.email'. */
function usesIn(file: string, source: string, owner: Map<string, string>): string[] {
  const place = placeOf(file);
  const uses = new Set<string>();
  for (const [, table] of source.matchAll(/'([a-z_]+)(?: as \w+|\.\w+)?'/g)) {
    const area = owner.get(table!);
    if (area !== undefined && area !== place && !file.endsWith(`areas/${area}/tables.ts`)) uses.add(`${file} ${table}`);
  }
  return [...uses];
}

function crossAreaUses(): string[] {
  const owner = owners();
  return readdirSync('server', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.startsWith('db/') && !f.startsWith('sandbox/'))
    .map((f) => join('server', f))
    .flatMap((file) => usesIn(file, readFileSync(file, 'utf8'), owner))
    .sort();
}

describe('table ownership', () => {
  it("when a file outside an area names one of the area's tables in a query, then the check finds it", () => {
    const owner = owners();
    const query =
      "db.selectFrom('vcns as v').innerJoin('companies as c', 'c.id', 'v.company_id').select('users.email')";
    expect(usesIn('server/areas/vcn/store/expiry.ts', query, owner)).toEqual([
      'server/areas/vcn/store/expiry.ts companies',
      'server/areas/vcn/store/expiry.ts users',
    ]);
    expect(usesIn('server/http/metrics.ts', "db.selectFrom('ingest_runs')", owner)).toEqual([
      'server/http/metrics.ts ingest_runs',
    ]);
    expect(usesIn('server/areas/directory/store/list.ts', "db.selectFrom('cost_centers')", owner)).toEqual([]);
  });

  it("when the sources are read, then no file names another area's table: it goes through the owner or server/db/", () => {
    expect(crossAreaUses()).toEqual([]);
  });
});
