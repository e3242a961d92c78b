// Word search over the statements (`q`, server/areas/statements/store/search.ts): each transaction's
// description, notes, counterparty or merchant and platform category, matched case- and
// accent-insensitively, also inside longer words. SQLite: an FTS5 trigram table per statement
// (`remove_diacritics 1`), kept by triggers in the writing transaction, so a search reads its own
// writes. PostgreSQL: pg_trgm's GIN index on the folded text (unaccent, lower case) of the same columns.
import { sql, type Kysely } from 'kysely';
import { foldedDocument, storeKind } from '../dialect.js';

/** The searched columns of each statement (the store's documents name the same). */
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
  if (storeKind(db) === 'postgres') {
    await sql`create extension if not exists unaccent`.execute(db);
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create or replace function finance_fold(text) returns text language sql immutable parallel safe strict
      as $$ select lower(unaccent('unaccent'::regdictionary, $1)) $$`.execute(db);
    for (const doc of DOCUMENTS)
      await sql`create index ${sql.raw(`${doc.table}_search`)} on ${sql.table(doc.table)}
        using gin (${foldedDocument(doc.columns)} gin_trgm_ops)`.execute(db);
    return;
  }
  for (const doc of DOCUMENTS) {
    const fts = sql.raw(doc.fts);
    const table = sql.raw(doc.table);
    const columns = doc.columns.join(', ');
    // The card statement's key is text (a ULID): its FTS row carries it, under the row's rowid.
    const carriesId = doc.rowKey === 'rowid';
    await sql`create virtual table ${fts} using fts5(${sql.raw(carriesId ? 'id unindexed, ' : '')}text, tokenize = 'trigram remove_diacritics 1')`.execute(
      db,
    );
    const values = (row: string) =>
      carriesId
        ? sql`(${sql.raw(`${row}${doc.rowKey}`)}, ${sql.raw(`${row}id`)}, ${joined(doc.columns, row)})`
        : sql`(${sql.raw(`${row}${doc.rowKey}`)}, ${joined(doc.columns, row)})`;
    const target = sql.raw(carriesId ? '(rowid, id, text)' : '(rowid, text)');
    await sql`insert into ${fts} ${target} select ${sql.raw(carriesId ? 'rowid, id, ' : 'id, ')}${joined(doc.columns, '')} from ${table}`.execute(
      db,
    );
    await sql`create trigger ${sql.raw(`${doc.fts}_insert`)} after insert on ${table} begin
      insert into ${fts} ${target} values ${values('new.')}; end`.execute(db);
    await sql`create trigger ${sql.raw(`${doc.fts}_update`)} after update of ${sql.raw(columns)} on ${table} begin
      delete from ${fts} where rowid = ${sql.raw(`old.${doc.rowKey}`)};
      insert into ${fts} ${target} values ${values('new.')}; end`.execute(db);
    await sql`create trigger ${sql.raw(`${doc.fts}_delete`)} after delete on ${table} begin
      delete from ${fts} where rowid = ${sql.raw(`old.${doc.rowKey}`)}; end`.execute(db);
  }
}
