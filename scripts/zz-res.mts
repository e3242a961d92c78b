import { openStore } from '../server/db/store.js';
import { BANKING_DOCUMENT, resolveSearch, searchWords } from '../server/areas/statements/store/search.js';
import { categoriesAndCostCenters } from '../server/areas/directory/public.js';
const store = await openStore(process.argv[2]!);
const db = store.db;
const companyId = (await db.selectFrom('companies').select('id').where('name', 'like', 'Benchmark%').executeTakeFirstOrThrow()).id;
const t = async (name: string, f: () => Promise<unknown>) => { for (let i = 0; i < 5; i++) await f(); const s = performance.now(); for (let i = 0; i < 30; i++) await f(); console.log(name.padEnd(30), ((performance.now() - s) / 30 * 1000).toFixed(0), 'us'); };
const cc = await categoriesAndCostCenters(db, companyId); console.log('categories', cc.categories.length, 'cost centers', cc.costCenters.length);
await t('categoriesAndCostCenters', () => categoriesAndCostCenters(db, companyId));
for (const w of ['reembolso', 'reembolso gestor', 'zzqxw']) {
  await t(`resolve page ${w}`, () => resolveSearch(db, companyId, searchWords(w), BANKING_DOCUMENT));
  await t(`resolve summary ${w}`, () => resolveSearch(db, companyId, searchWords(w)));
}
await store.close();
