import Database from 'better-sqlite3';
import { signatureOf } from '../server/lib/search-signature.js';
const d = new Database(process.argv[2]!, { readonly: true });
d.pragma('cache_size=-65536');
d.defaultSafeIntegers(true);
const C = (d.prepare("select id from companies where name like 'Benchmark%'").get() as { id: string }).id;
const time = (name: string, st: Database.Statement, args: unknown[], n = 30) => { for (let i = 0; i < 5; i++) st.all(...args); const t = process.hrtime.bigint(); let rows: unknown[] = []; for (let i = 0; i < n; i++) rows = st.all(...args); console.log(name.padEnd(34), (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(0).padStart(7), 'us rows', rows.length); };
const doc = `coalesce(description,'') || ' ' || coalesce(notes,'') || ' ' || coalesce(source_destination_name,'') || ' ' || coalesce(place_establishment,'') || ' ' || coalesce(category_description,'')`;
time('page1 ids', d.prepare('select id, transaction_date from banking_transactions where company_id=? order by transaction_date desc, id desc limit 21'), [C]);
for (const w of ['reembolso', 'reembolso gestor', 'zzqxw']) {
  const [lo, hi] = signatureOf(w);
  time(`sig only ${w}`, d.prepare('select id, transaction_date from banking_transactions indexed by bt_company_date_sig where company_id=? and (search_sig_lo & ?) = ? and (search_sig_hi & ?) = ? order by transaction_date desc, id desc limit 21'), [C, lo, lo, hi, hi], w === 'zzqxw' ? 3 : 30);
  time(`sig+text ${w}`, d.prepare(`select id, transaction_date from banking_transactions indexed by bt_company_date_sig where company_id=? and (search_sig_lo & ?) = ? and (search_sig_hi & ?) = ? and ${doc} like ? order by transaction_date desc, id desc limit 21`), [C, lo, lo, hi, hi, `%${w.split(' ')[0]}%`], w === 'zzqxw' ? 3 : 30);
  console.log('  pass', d.prepare('select count(*) n from (select 1 from banking_transactions indexed by bt_company_date_sig where company_id=? and (search_sig_lo & ?) = ? and (search_sig_hi & ?) = ? order by transaction_date desc limit 2000)').get(C, lo, lo, hi, hi));
}
for (const w of ['reembolso', 'reembolso gestor']) {
  const [lo, hi] = signatureOf(w);
  const inner = `select id, transaction_date from banking_transactions indexed by bt_company_date_sig where company_id=? and (search_sig_lo & ?) = ? and (search_sig_hi & ?) = ? order by transaction_date desc, id desc`;
  const st = d.prepare(`select c.id, c.transaction_date from (${inner} limit 1000000) c join banking_transactions t on t.id = c.id where ${doc.replace(/coalesce\(/g, 'coalesce(t.')} like ? order by c.transaction_date desc, c.id desc limit 21`);
  time(`fenced ${w}`, st, [C, lo, lo, hi, hi, `%${w.split(' ')[0]}%`]);
  console.log(d.prepare(`explain query plan select c.id from (${inner} limit 1000000) c join banking_transactions t on t.id = c.id where ${doc.replace(/coalesce\(/g, 'coalesce(t.')} like ? order by c.transaction_date desc, c.id desc limit 21`).all(C, lo, lo, hi, hi, 'x').map((r: any) => r.detail).join(' | '));
  const ops = d.prepare(`explain select id, transaction_date from banking_transactions indexed by bt_company_date_sig where company_id=? and (search_sig_lo & ?) = ? and (search_sig_hi & ?) = ? and ${doc} like ? order by transaction_date desc, id desc limit 21`).all(C, lo, lo, hi, hi, 'x').map((r: any) => r.opcode);
  console.log('deferred?', ops.includes('DeferredSeek'), ops.filter((o: string) => /Seek|Column|Next|Prev/.test(o)).join(','));
  const N = d.prepare(`select count(*) n, sum(${doc} like ?) m from (select * from banking_transactions indexed by bt_company_date_sig where company_id=? and (search_sig_lo & ?) = ? and (search_sig_hi & ?) = ?)`).get(`%${w.split(' ')[1] ?? w}%`, C, lo, lo, hi, hi);
  console.log('sig passes / true', N);
}
