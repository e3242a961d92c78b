import Database from 'better-sqlite3';
const d = new Database(process.argv[2]!);
const t = Date.now(); d.exec('analyze'); console.log('analyzed', Date.now() - t, 'ms');
console.log(d.prepare("select idx, stat from sqlite_stat1 where idx like '%_sig'").all());
