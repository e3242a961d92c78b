import { openStore } from '../server/db/store.js';
import { loadBankingPage } from '../server/areas/statements/store/banking-page.js';
import { BANKING_DOCUMENT, resolveSearch, searchWords } from '../server/areas/statements/store/search.js';
const store = await openStore(process.argv[2]!);
const db = store.db;
const { company_id: companyId } = (await db.selectFrom('banking_transactions').select('company_id').groupBy('company_id').orderBy((eb) => eb.fn.countAll(), 'desc').limit(1).executeTakeFirstOrThrow()) as { company_id: string };
const base = { companyId, sort: { field: 'transactionDate', direction: 'desc' }, take: 20, filters: {} } as never as Parameters<typeof loadBankingPage>[1];
const cases: Array<[string, string | undefined, Record<string, unknown>]> = [['page 1', undefined, {}], ['reembolso', 'reembolso', {}], ['reembolso gestor', 'reembolso gestor', {}], ['atlas + status 3', 'atlas', { status: [3] }], ['zzqxw', 'zzqxw', {}]];
const prepared = [];
for (const [name, q, f] of cases) {
  const t0 = performance.now();
  const search = q ? await resolveSearch(db, companyId, searchWords(q), BANKING_DOCUMENT) : undefined;
  prepared.push({ name, resolveMs: performance.now() - t0, query: { ...base, filters: { ...f, ...(search ? { search } : {}) } } });
}
const times = prepared.map(() => [] as number[]);
for (let r = 0; r < 12; r++) for (const [i, p] of prepared.entries()) { const t = performance.now(); const page = await loadBankingPage(db, p.query as never); times[i]!.push(performance.now() - t); if (r === 0) console.log(p.name, 'rows', page.items.length); }
const med = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const b = med(times[0]!);
for (const [i, p] of prepared.entries()) console.log(p.name.padEnd(20), (med(times[i]!) * 1000).toFixed(0).padStart(8), 'us', (med(times[i]!) / b).toFixed(2), 'x   resolve', (p.resolveMs * 1000).toFixed(0), 'us');
await store.close();
