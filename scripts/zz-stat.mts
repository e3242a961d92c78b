import Database from 'better-sqlite3';
const d = new Database(process.argv[2]!, { readonly: true });
console.log(d.prepare("select tbl, idx, stat from sqlite_stat1 where tbl='banking_transactions'").all());
