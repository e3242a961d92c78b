// Each table belongs to the area whose tables.ts declares it. Another area, the HTTP layer or the
// command line reaches it through a function of the owning area or a named module in server/db/
// (company-zone.ts, reclassify.ts, …), never by naming the table in its own queries: the import rules
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

/**
 * Uses that predate this check, each with its reason. Shrink this list; do not grow it.
 * - Names joined into one statement for display: a page's rows carry the names of their user,
 *   category and cost center (a query per page more otherwise).
 * - Seeding and the sandbox simulation read the company they fill.
 * - Ingest resolves the references of each line in the same transaction.
 * - The sandbox's docs page shows samples with the demo company's ids, one row of each table.
 * - Metrics read the ingest runs at scrape time.
 */
const KNOWN = new Set([
  'server/areas/vcn/store/expiry.ts companies',
  'server/areas/statements/store/receipt.ts companies',
  'server/areas/statements/store/lookups.ts users',
  'server/areas/statements/store/banking-page.ts users',
  'server/areas/statements/store/banking-page.ts categories',
  'server/areas/statements/store/banking-page.ts cost_centers',
  'server/areas/statements/store/credit-card-page.ts users',
  'server/areas/statements/store/credit-card-page.ts categories',
  'server/areas/statements/store/credit-card-page.ts cost_centers',
  'server/areas/statements/store/annotate.ts categories',
  'server/areas/statements/store/annotate.ts cost_centers',
  'server/areas/statements/store/ingest-references.ts users',
  'server/areas/statements/store/ingest-references.ts categories',
  'server/areas/statements/store/ingest-references.ts cost_centers',
  'server/docs-demo.ts banking_transactions',
  'server/docs-demo.ts bills',
  'server/docs-demo.ts categories',
  'server/docs-demo.ts companies',
  'server/docs-demo.ts cost_centers',
  'server/docs-demo.ts credit_card_transactions',
  'server/docs-demo.ts roles',
  'server/docs-demo.ts suppliers',
  'server/docs-demo.ts users',
  'server/docs-demo.ts vcns',
  'server/http/metrics-queue.ts ingest_runs',
]);

function crossAreaUses(): string[] {
  const owner = owners();
  const uses = new Set<string>();
  const files = readdirSync('server', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.startsWith('db/') && !f.startsWith('sandbox/'))
    .map((f) => join('server', f));
  for (const file of files) {
    const place = placeOf(file);
    // A table named in a string: 'users', 'users as u', 'users.email'.
    for (const [, table] of readFileSync(file, 'utf8').matchAll(/'([a-z_]+)(?: as \w+|\.\w+)?'/g)) {
      const area = owner.get(table!);
      if (area !== undefined && area !== place && !file.endsWith(`areas/${area}/tables.ts`))
        uses.add(`${file} ${table}`);
    }
  }
  return [...uses].sort();
}

describe('table ownership', () => {
  it("when a file outside an area names one of the area's tables in a query, then it is one of the known uses", () => {
    expect(crossAreaUses().filter((use) => !KNOWN.has(use))).toEqual([]);
  });

  it('when a known use is gone, then it is also gone from the list', () => {
    const uses = new Set(crossAreaUses());
    expect([...KNOWN].filter((use) => !uses.has(use))).toEqual([]);
  });
});
