// Benchmark of the banking statement list (DESIGN §5): one company with 1,000,000 banking
// transactions plus 9 other companies' rows; the median latency of page 1, a page 5,000 pages deep,
// each filter alone and all filters together, word searches (`q`), each with its ratio to page 1, and the EXPLAIN QUERY
// PLAN of each query. It calls the list handler directly (the same code as over HTTP, minus HTTP).
// Usage: npm run bench:statements [-- --rows 1000000 --others 9 --other-rows 100000 --runs 200 --warmup 20 --db FILE]
// [--only TEXT]: page 1 and the cases whose name holds TEXT (e.g. `--only q=`).
// With --db, the seeded database is kept in FILE and reused by the next run. --db postgres://… runs
// the same cases on PostgreSQL (EXPLAIN instead of EXPLAIN QUERY PLAN); the database should be empty
// or hold a previous run's data.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import type { Db } from '../server/db/database.js';
import { openStore } from '../server/db/store.js';
import { createCompany } from '../server/areas/auth/store.js';
import { ManualClock, systemClock } from '../server/lib/clock.js';
import { createRng } from '../server/lib/random.js';
import { testConfig } from '../server/config.js';
import { seedDirectory } from '../server/sandbox/seed/directory.js';
import { seedUsers } from '../server/sandbox/seed/users.js';
import { seedStatements } from '../server/sandbox/seed/statements.js';
import { handlers } from '../server/areas/statements/handlers.js';
import { bankingPageQuery } from '../server/areas/statements/banking-query.js';
import { bankingPageRowsQuery, loadBankingPage } from '../server/areas/statements/store/banking-page.js';
import { userIdsByEmail } from '../server/areas/users/public.js';
import { SORT_COLUMNS } from '../server/areas/statements/store/banking-list.js';
import { planBankingPage } from '../server/areas/statements/store/banking-plan.js';
import { BANKING_DOCUMENT, resolveSearch } from '../server/areas/statements/store/search.js';
import type { HandlerContext, Input } from '../server/kit/handler.js';
import { contract } from '../server/contract/index.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROWS = arg('rows', 1_000_000);
const OTHERS = arg('others', 9);
const OTHER_ROWS = arg('other-rows', 100_000);
const RUNS = arg('runs', 200);
const WARMUP = arg('warmup', 20);
const only = process.argv.indexOf('--only') > 0 ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const dbArg = process.argv.indexOf('--db') > 0 ? process.argv[process.argv.indexOf('--db') + 1] : undefined;
type Query = Input<'listBankingTransactions'>['query'];

const clock = new ManualClock('2026-11-20T15:00:00Z');
const config = testConfig();

async function seed(db: Db, name: string, rows: number, seedNumber: number) {
  const companyId = await createCompany(db, clock, { name });
  const ctx = {
    companyId,
    rng: createRng(seedNumber),
    clock,
    transactions: rows,
    onProgress: (done: number, total: number) => {
      if (done === total || done % 100_000 === 0) process.stderr.write(`\r  ${name}: ${done}/${total} banking rows`);
    },
  };
  await seedDirectory(db, ctx);
  await seedUsers(db, ctx);
  const started = performance.now();
  await seedStatements(db, ctx);
  process.stderr.write(` — statements seeded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return companyId;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main() {
  const dir = dbArg ? undefined : mkdtempSync(join(tmpdir(), 'bench-statements-'));
  const file = dbArg ?? join(dir!, 'bench.sqlite');
  const store = await openStore(file);
  const { db } = store;
  const pg = store.kind === 'postgres';
  const reuse = pg
    ? (await db
        .selectFrom('companies')
        .select('id')
        .where('name', '=', 'Benchmark Comércio Ltda')
        .executeTakeFirst()) !== undefined
    : existsSync(file) && (await db.selectFrom('companies').select('id').limit(1).executeTakeFirst()) !== undefined;
  try {
    let companyId: string;
    if (reuse) {
      companyId = (
        await db
          .selectFrom('companies')
          .select('id')
          .where('name', '=', 'Benchmark Comércio Ltda')
          .executeTakeFirstOrThrow()
      ).id;
      process.stderr.write(`reusing ${file}\n`);
    } else {
      process.stderr.write(`seeding ${ROWS} + ${OTHERS} × ${OTHER_ROWS} banking rows…\n`);
      companyId = await seed(db, 'Benchmark Comércio Ltda', ROWS, 1);
      for (let i = 0; i < OTHERS; i += 1) await seed(db, `Outra Empresa ${i + 1} Ltda`, OTHER_ROWS, 100 + i);
      // PostgreSQL: vacuumed too, as autovacuum keeps a live database (index-only scans need the visibility map).
      await db.executeQuery(CompiledQuery.raw(pg ? 'VACUUM ANALYZE' : 'ANALYZE'));
    }

    const auth = {
      companyId,
      clientId: 'bench',
      scopes: new Set(['statements:read']),
      timeZone: 'America/Sao_Paulo',
      companyClock: systemClock,
    };
    const ctx = { db, clock, config, index: contract(), auth, requestId: 'bench' } as unknown as HandlerContext;
    const list = (query: Query) =>
      handlers.listBankingTransactions({ query, params: {}, body: undefined } as never, ctx);

    // Filter values taken from the data, as a caller would use them.
    const pick = async (text: string) =>
      (
        await db.executeQuery<Record<string, unknown>>(
          CompiledQuery.raw(pg ? text.replace('?', '$1') : text, [companyId]),
        )
      ).rows[0]!;
    const account = (
      await pick(
        'select account_id as v from banking_transactions where company_id = ? group by 1 order by count(*) limit 1',
      )
    ).v as number;
    const categories = (
      await db
        .selectFrom('categories')
        .select('id')
        .where('company_id', '=', companyId)
        .orderBy('id')
        .limit(2)
        .execute()
    ).map((r) => r.id);
    const costCenter = (
      await pick(
        'select cost_center_id as v from banking_transactions where company_id = ? and cost_center_id is not null limit 1',
      )
    ).v as string;
    const email = (
      await pick(
        'select u.email as v from banking_transactions t join users u on u.id = t.user_id where t.company_id = ? group by 1 order by count(*) limit 1',
      )
    ).v as string;
    const amount = (
      await pick('select brl_amount_minor as v from banking_transactions where company_id = ? limit 1 offset 5000')
    ).v as number;
    const accountAmount = (
      await db
        .selectFrom('banking_transactions')
        .select('brl_amount_minor as v')
        .where('company_id', '=', companyId)
        .where('account_id', '=', account)
        .offset(5_000)
        .limit(1)
        .executeTakeFirstOrThrow()
    ).v;

    const deep = async (sorting: NonNullable<Query['sorting']>) => {
      const q: Query = { limit: 20, sorting };
      const { page, paging } = bankingPageQuery(q, { auth, config, index: contract() });
      const column = SORT_COLUMNS[page.sort.field];
      const row = await db
        .selectFrom('banking_transactions')
        .select([`${column} as k`, 'id'])
        .where('company_id', '=', companyId)
        .orderBy(column, page.sort.direction)
        .orderBy('id', page.sort.direction)
        .offset(5_000 * 20 - 1)
        .limit(1)
        .executeTakeFirstOrThrow();
      return { ...q, nextPageStartKey: paging.cursorAfter([row.k as string | number, row.id]) };
    };

    const allFilters: Query = {
      accountId: account,
      startDate: '2025-01-01',
      endDate: '2026-11-20',
      hasAttachments: false,
      wasConciled: false,
      categoryIds: categories,
      costCenterIds: [costCenter],
      responsibleEmail: email,
      status: [2, 3],
      amountGt: 20,
    };
    const secondPage = async (query: Query) => {
      const first = await list(query);
      const key =
        'body' in first && first.body ? (first.body as { nextPageStartKey?: string }).nextPageStartKey : undefined;
      // With fewer rows (--rows) the filters may match a single page: then time the first page.
      return key === undefined ? query : { ...query, nextPageStartKey: key };
    };

    const cases: Array<[string, Query]> = [
      ['page 1', { limit: 20 }],
      ['page 5,000', await deep('transactionDate:desc')],
      ['accountId', { accountId: account }],
      ['startDate/endDate (1 month)', { startDate: '2026-03-01', endDate: '2026-03-31' }],
      ['hasAttachments=true', { hasAttachments: true }],
      ['wasConciled=false', { wasConciled: false }],
      ['categoryIds (2)', { categoryIds: categories }],
      ['costCenterIds (1)', { costCenterIds: [costCenter] }],
      ['responsibleEmail', { responsibleEmail: email }],
      ['status=3', { status: [3] }],
      ['status=1,3', { status: [1, 3] }],
      ['amountEq', { amountEq: amount / 100 }],
      ['amountGt=1000', { amountGt: 1000 }],
      ['amountLt=50', { amountLt: 50 }],
      ['all filters together', allFilters],
      ['all filters, limit 4, page 2', await secondPage({ ...allFilters, limit: 4 })],
      [
        'responsibleEmail + categoryIds (1) + wasConciled=false',
        { responsibleEmail: email, categoryIds: [categories[0]!], wasConciled: false },
      ],
      ['costCenterIds (1) + categoryIds (2)', { costCenterIds: [costCenter], categoryIds: categories }],
      [
        'responsibleEmail + costCenterIds (1) + status=1',
        { responsibleEmail: email, costCenterIds: [costCenter], status: [1] },
      ],
      ['accountId + amountEq', { accountId: account, amountEq: accountAmount / 100 }],
      ['sorting=brlAmount:desc page 1', { sorting: 'brlAmount:desc' }],
      ['sorting=brlAmount:desc page 5,000', await deep('brlAmount:desc')],
      ['sorting=totalTransactionAmount:asc page 1', { sorting: 'totalTransactionAmount:asc' }],
      // `q`: a word of 1 in 100 rows' notes, two words together, with a filter, and a word no row holds.
      ['q=reembolso', { q: 'reembolso' }],
      ['q=reembolso gestor', { q: 'reembolso gestor' }],
      ['q=atlas + status=3', { q: 'atlas', status: [3] }],
      ['q=inexistente (no row)', { q: 'zzqxw' }],
    ];
    // Each single filter under both amount orders (index 2..13 of the cases above are the single filters).
    const singles = cases.slice(2, 14);
    for (const sorting of ['brlAmount:desc', 'totalTransactionAmount:asc'] as const) {
      for (const [name, query] of singles) cases.push([`${sorting} + ${name}`, { ...query, sorting }]);
    }
    // The known weak spots of amount orders (store/banking-plan.ts, banking-arms.ts): a date range of a
    // few days (near the sort/walk switch) and a BRL amount below X walked from the largest totals
    // (split by how the total compares with the BRL amount: ArmShape.totalVsBrl).
    cases.push([
      'brlAmount:desc + 3 days',
      { sorting: 'brlAmount:desc', startDate: '2026-03-02', endDate: '2026-03-04' },
    ]);
    cases.push(['totalTransactionAmount:desc + amountLt=50', { sorting: 'totalTransactionAmount:desc', amountLt: 50 }]);
    // Its mirrors: the BRL amount above X walked from the largest totals, and a larger X below which
    // more rows carry fees (IOF, service fees) that may lift their total above X.
    cases.push([
      'totalTransactionAmount:desc + amountGt=1000',
      { sorting: 'totalTransactionAmount:desc', amountGt: 1000 },
    ]);
    cases.push([
      'totalTransactionAmount:desc + amountLt=1000',
      { sorting: 'totalTransactionAmount:desc', amountLt: 1000 },
    ]);

    if (only !== undefined)
      cases.splice(0, cases.length, ...cases.filter(([name], i) => i === 0 || name.includes(only)));
    // The store's page query, as the handler runs it after parsing (responsibleEmail resolved).
    const prepared = await Promise.all(
      cases.map(async ([, query]) => {
        const { page, email: wanted, words } = bankingPageQuery(query, { auth, config, index: contract() });
        if (wanted !== undefined) page.filters.userIds = await userIdsByEmail(db, companyId, wanted);
        if (words) page.filters.search = await resolveSearch(db, companyId, words, BANKING_DOCUMENT);
        return page;
      }),
    );
    // Warm everything, then time in rounds (every case once per round, each round starting at the
    // next case), so load on the machine and the order of cases weigh on all cases alike.
    for (let i = 0; i < WARMUP; i += 1)
      for (const [k, [, query]] of cases.entries()) {
        await list(query);
        await loadBankingPage(db, prepared[k]!);
      }
    const storeTimes = cases.map(() => [] as number[]);
    const handlerTimes = cases.map(() => [] as number[]);
    for (let i = 0; i < RUNS; i += 1) {
      for (let j = 0; j < cases.length; j += 1) {
        const k = (i + j) % cases.length;
        const query = cases[k]![1];
        let t0 = performance.now();
        await loadBankingPage(db, prepared[k]!);
        storeTimes[k]!.push((performance.now() - t0) * 1000);
        t0 = performance.now();
        await list(query);
        handlerTimes[k]!.push((performance.now() - t0) * 1000);
      }
    }
    const results: Array<{ name: string; median: number; handler: number; rows: number; plan: string[] }> = [];
    for (const [k, [name, query]] of cases.entries()) {
      const sample = await list(query);
      const rows =
        'body' in sample && sample.body ? (sample.body as { transactions: unknown[] }).transactions.length : 0;
      const compiled = bankingPageRowsQuery(db, await planBankingPage(db, prepared[k]!)).compile();
      const plan = await db.executeQuery<{ detail?: string; 'QUERY PLAN'?: string }>(
        CompiledQuery.raw(`${pg ? 'EXPLAIN (COSTS OFF)' : 'EXPLAIN QUERY PLAN'} ${compiled.sql}`, [
          ...compiled.parameters,
        ]),
      );
      results.push({
        name,
        median: median(storeTimes[k]!),
        handler: median(handlerTimes[k]!),
        rows,
        plan: plan.rows.map((r) => r.detail ?? r['QUERY PLAN'] ?? ''),
      });
    }

    const base = results[0]!;
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    console.log(
      `\nBanking list, company with ${ROWS.toLocaleString('en')} rows + other companies' rows; median of ${RUNS} rounds`,
    );
    console.log(
      'store = the page query with joins and attachments (loadBankingPage); handler = store + parsing + JSON shaping, no HTTP\n',
    );
    console.log(line(['query', 'rows', 'store µs', 'ratio to page 1', 'handler µs', 'ratio to page 1']));
    console.log(line(['---', '---:', '---:', '---:', '---:', '---:']));
    for (const r of results) {
      console.log(
        line([
          r.name,
          String(r.rows),
          r.median.toFixed(0),
          (r.median / base.median).toFixed(2),
          r.handler.toFixed(0),
          (r.handler / base.handler).toFixed(2),
        ]),
      );
    }
    console.log(pg ? '\nEXPLAIN (PostgreSQL)' : '\nEXPLAIN QUERY PLAN');
    for (const r of results) console.log(`\n${r.name}:\n${r.plan.map((p) => `  ${p}`).join('\n')}`);
  } finally {
    await db.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
