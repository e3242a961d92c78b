import Database from 'better-sqlite3';
import { signatureOf } from '../server/lib/search-signature.js';
const d = new Database(process.argv[2]!, { readonly: true }); d.pragma('cache_size=-65536'); d.defaultSafeIntegers(true);
const C = (d.prepare("select id from companies where name like 'Benchmark%'").get() as { id: string }).id;
const [lo, hi] = signatureOf('reembolso gestor');
const t = (name: string, sqlText: string, args: unknown[]) => { const st = d.prepare(sqlText); console.log(name, d.prepare('explain query plan ' + sqlText).all(...args).map((r: any) => r.detail).join(' | ')); for (let i = 0; i < 5; i++) st.get(...args); const s = performance.now(); for (let i = 0; i < 50; i++) st.get(...args); console.log('  ', ((performance.now() - s) / 50 * 1000).toFixed(0), 'us', st.get(...args)); };
t('oldest', 'select transaction_date from banking_transactions where company_id = ? order by transaction_date desc, id desc limit 1 offset 1999', [C]);
const o = (d.prepare('select transaction_date from banking_transactions where company_id = ? order by transaction_date desc, id desc limit 1 offset 1999').get(C) as any).transaction_date;
t('count', 'select count(*) as n from banking_transactions where company_id = ? and (search_sig_lo & ?) = ? and (search_sig_hi & ?) = ? and transaction_date >= ?', [C, lo, lo, hi, hi, o]);
