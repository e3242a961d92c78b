import Database from 'better-sqlite3';
import { signatureOf } from '../server/lib/search-signature.js';
const d = new Database(process.argv[2]!, { readonly: true }); d.pragma('cache_size=-65536'); d.defaultSafeIntegers(true);
const C = (d.prepare("select id from companies where name like 'Benchmark%'").get() as { id: string }).id;
const [lo, hi] = signatureOf('reembolso gestor');
for (const sqlText of [
  'select count(*) as n from (select search_sig_lo as lo, search_sig_hi as hi from banking_transactions where company_id = ? order by transaction_date desc, id desc limit 2000) as n where (lo & ?) = ? and (hi & ?) = ?',
  'select count(*) as n from (select search_sig_lo as lo, search_sig_hi as hi from banking_transactions indexed by bt_company_date_sig where company_id = ? order by transaction_date desc, id desc limit 2000) as n where (lo & ?) = ? and (hi & ?) = ?',
]) {
  const st = d.prepare(sqlText);
  console.log(d.prepare('explain query plan ' + sqlText).all(C, lo, lo, hi, hi).map((r: any) => r.detail).join(' | '));
  for (let i = 0; i < 5; i++) st.get(C, lo, lo, hi, hi);
  const s = performance.now(); for (let i = 0; i < 50; i++) st.get(C, lo, lo, hi, hi); console.log(((performance.now() - s) / 50 * 1000).toFixed(0), 'us', st.get(C, lo, lo, hi, hi));
}
