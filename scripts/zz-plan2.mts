import { openStore } from '../server/db/store.js';
import { bankingPageRowsQuery } from '../server/areas/statements/store/banking-page.js';
import { pageIdsQuery } from '../server/areas/statements/store/banking-list.js';
import { BANKING_DOCUMENT, resolveSearch, searchWords } from '../server/areas/statements/store/search.js';
import Database from 'better-sqlite3';
const store = await openStore(process.argv[2]!);
const db = store.db;
const companyId = (await db.selectFrom('companies').select('id').where('name', 'like', 'Benchmark%').executeTakeFirstOrThrow()).id;
const d = new Database(process.argv[2]!, { readonly: true }); d.pragma('cache_size=-65536'); d.defaultSafeIntegers(true); d.function('finance_fold', { deterministic: true }, (t: unknown) => typeof t === 'string' ? t.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase() : t);
for (const w of ['reembolso', 'zzqxw']) {
  const search = await resolveSearch(db, companyId, searchWords(w), BANKING_DOCUMENT);
  const q = { companyId, sort: { field: 'transactionDate', direction: 'desc' }, take: 21, filters: { search } } as never;
  for (const [name, c] of [['ids', pageIdsQuery(db, q).compile()], ['page', bankingPageRowsQuery(db, q).compile()]] as const) {
    const st = d.prepare(c.sql); const args = c.parameters as unknown[];
    for (let i = 0; i < 3; i++) st.all(...args);
    const t = process.hrtime.bigint(); for (let i = 0; i < 10; i++) st.all(...args);
    console.log(w, name, (Number(process.hrtime.bigint() - t) / 10 / 1000).toFixed(0), 'us', JSON.stringify(search).slice(0, 120));
  }
  console.log(pageIdsQuery(db, q).compile().sql);
}
await store.close();
