import SQLite from 'better-sqlite3';
const db = new SQLite('/tmp/fs.sqlite'); db.pragma('journal_mode=WAL'); db.pragma('synchronous=FULL');
db.exec('create table if not exists t(id integer primary key, v text)');
const ins = db.prepare('insert into t(v) values (?)');
let s = process.hrtime.bigint(); for (let i = 0; i < 500; i++) { ins.run('x'); } console.log('FULL per commit', Number(process.hrtime.bigint() - s) / 500 / 1000, 'µs');
db.pragma('synchronous=NORMAL');
s = process.hrtime.bigint(); for (let i = 0; i < 500; i++) { ins.run('x'); } console.log('NORMAL per commit', Number(process.hrtime.bigint() - s) / 500 / 1000, 'µs');
