import { openDatabase } from '../server/db/database.ts';
import { loadBankingPage } from '../server/areas/statements/store/banking-page.ts';
const db = await openDatabase('/tmp/bench.sqlite', { migrate: false });
const c = (await db.selectFrom('companies').select(['id', 'time_zone']).where('name', '=', 'Benchmark HTTP Comércio Ltda').executeTakeFirstOrThrow()) as any;
const q = { companyId: c.id, filters: {}, sort: { field: 'transactionDate', direction: 'desc' }, take: 20 } as any;
for (let i = 0; i < 5000; i++) await loadBankingPage(db, q);
await db.destroy();
