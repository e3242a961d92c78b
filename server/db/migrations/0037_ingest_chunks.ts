// An ingest run writes everything but its rows before its closing transaction, in its short staging
// transactions, so the closing holds the write lock for the rows' move alone:
//  - its lines' keys, each held by the run (`ingested_lines.run_id`) until it is done: a key counts
//    as ingested unless its run is still loading;
//  - on SQLite, the rows' search documents (migration 0020's FTS5 tables), under the keys the rows
//    will have: a banking id taken ahead from the table's AUTOINCREMENT sequence, a credit-card rowid
//    below every row (`ingest_credit_card_rows.row_key`). The insert triggers write a document only
//    when the row's is not there yet. A document without its row is found by no search: every search
//    reads the rows it names, and the run's rows do not exist until its closing transaction.
import { sql, type Kysely } from 'kysely';
import { columnTypes } from '../column-types.js';
import { storeKind } from '../dialect.js';

/** The searched columns of each statement, as migration 0020 declares them. */
const DOCUMENTS = [
  {
    table: 'banking_transactions',
    fts: 'banking_search',
    rowKey: 'id',
    columns: ['description', 'notes', 'source_destination_name', 'place_establishment', 'category_description'],
  },
  {
    table: 'credit_card_transactions',
    fts: 'credit_card_search',
    rowKey: 'rowid',
    columns: ['description', 'notes', 'merchant_name', 'category_description'],
  },
] as const;

const joined = (columns: readonly string[], row: string) =>
  sql.raw(columns.map((c) => `coalesce(${row}${c}, '')`).join(` || ' ' || `));

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ingested_lines').addColumn('run_id', 'text').execute();
  await db.schema.createIndex('ingested_lines_run').on('ingested_lines').column('run_id').execute();
  await db.schema.alterTable('ingest_credit_card_rows').addColumn('row_key', columnTypes(db).bigInteger).execute();
  if (storeKind(db) === 'postgres') return;
  // In one transaction, on the connection that dropped the trigger: one that has not seen the drop
  // yet would refuse to create it again.
  await db.transaction().execute(async (trx) => {
    for (const doc of DOCUMENTS) {
      const carriesId = doc.rowKey === 'rowid';
      const key = sql.raw(`new.${doc.rowKey}`);
      const target = sql.raw(carriesId ? '(rowid, id, text)' : '(rowid, text)');
      const values = carriesId
        ? sql`(${key}, new.id, ${joined(doc.columns, 'new.')})`
        : sql`(${key}, ${joined(doc.columns, 'new.')})`;
      await sql`drop trigger ${sql.raw(`${doc.fts}_insert`)}`.execute(trx);
      await sql`create trigger ${sql.raw(`${doc.fts}_insert`)} after insert on ${sql.raw(doc.table)}
        when not exists (select 1 from ${sql.raw(doc.fts)} where rowid = ${key}) begin
        insert into ${sql.raw(doc.fts)} ${target} values ${values}; end`.execute(trx);
    }
  });
}
