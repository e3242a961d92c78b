import pg from 'pg';
import { signatureOf } from '../server/lib/search-signature.js';
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/q42_bench' }); await c.connect();
const C = (await c.query("select id from companies where name like 'Benchmark%'")).rows[0].id;
const doc = `finance_fold(coalesce(description, '') || ' ' || coalesce(notes, '') || ' ' || coalesce(source_destination_name, '') || ' ' || coalesce(place_establishment, '') || ' ' || coalesce(category_description, ''))`;
const time = async (name: string, q: string, args: unknown[], n = 10) => { for (let i = 0; i < 3; i++) await c.query(q, args); const t = performance.now(); let r; for (let i = 0; i < n; i++) r = await c.query(q, args); console.log(name.padEnd(30), ((performance.now() - t) / n * 1000).toFixed(0).padStart(8), 'us rows', r!.rows.length); };
await time('page1 ids', 'select id from banking_transactions where company_id=$1 order by transaction_date desc, id desc limit 21', [C]);
await time('page1 rows', 'select * from banking_transactions where company_id=$1 order by transaction_date desc, id desc limit 21', [C]);
for (const w of ['reembolso', 'reembolso gestor']) {
  const [lo, hi] = signatureOf(w); const like = `%${w.split(' ')[0]}%`; const like2 = `%${w.split(' ')[1] ?? w}%`;
  await time(`like only ${w}`, `select id from banking_transactions where company_id=$1 and ${doc} like $2 and ${doc} like $3 order by transaction_date desc, id desc limit 21`, [C, like, like2]);
  await time(`sig+like ${w}`, `select id from banking_transactions where company_id=$1 and (search_sig_lo & $4) = $4 and (search_sig_hi & $5) = $5 and ${doc} like $2 and ${doc} like $3 order by transaction_date desc, id desc limit 21`, [C, like, like2, String(lo), String(hi)]);
  await time(`fenced ${w}`, `select c.id from (select id, transaction_date from banking_transactions where company_id=$1 and (search_sig_lo & $4) = $4 and (search_sig_hi & $5) = $5 order by transaction_date desc, id desc offset 0) c join banking_transactions t on t.id = c.id where ${doc.replace(/coalesce\(/g, 'coalesce(t.')} like $2 and ${doc.replace(/coalesce\(/g, 'coalesce(t.')} like $3 order by c.transaction_date desc, c.id desc limit 21`, [C, like, like2, String(lo), String(hi)]);
  const p = await c.query(`explain analyze select c.id from (select id, transaction_date from banking_transactions where company_id=$1 and (search_sig_lo & $4) = $4 and (search_sig_hi & $5) = $5 order by transaction_date desc, id desc offset 0) c join banking_transactions t on t.id = c.id where ${doc.replace(/coalesce\(/g, 'coalesce(t.')} like $2 and ${doc.replace(/coalesce\(/g, 'coalesce(t.')} like $3 order by c.transaction_date desc, c.id desc limit 21`, [C, like, like2, String(lo), String(hi)]);
  console.log(p.rows.map((r) => r['QUERY PLAN']).slice(0, 8).join('\n'));
}
await c.end();
