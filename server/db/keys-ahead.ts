// Keys of rows a bulk insert will write later, taken now, so that what is keyed by them is written
// ahead of the rows, outside the transaction that inserts them: on SQLite, the rows' search
// documents (the FTS5 tables of migration 0020, keyed by the row's rowid; their insert triggers skip a
// row whose document is there, migration 0037). A document without its row is harmless: a search
// reads the rows the documents name, and finds none. PostgreSQL indexes the documents on the table
// itself: there no key is taken (the functions answer undefined) and nothing is written ahead.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { joinedDocument, storeKind, type SearchDocument } from './dialect.js';

/** Rows of a staging table that will be inserted under the keys in `key`. */
interface Staged {
  table: string;
  key: string;
  where: RawBuilder<boolean>;
}

/**
 * `n` ids of an AUTOINCREMENT table taken from its sequence, as its inserts take them, so no insert
 * is given one of them: the first of the range.
 */
export async function idsAhead(db: Kysely<any>, table: string, n: number): Promise<number | undefined> {
  if (storeKind(db) === 'postgres' || n === 0) return undefined;
  const largest = sql`coalesce((select max(rowid) from ${sql.table(table)}), 0)`;
  // The table's row in the sequence appears with its first insert.
  await sql`insert into sqlite_sequence (name, seq) select ${table}, ${largest}
    where not exists (select 1 from sqlite_sequence where name = ${table})`.execute(db);
  const { rows } = await sql<{ first: number }>`update sqlite_sequence set seq = max(seq, ${largest}) + ${n}
    where name = ${table} returning seq - ${n} + 1 as first`.execute(db);
  return Number(rows[0]!.first);
}

/**
 * `n` rowids of a table without a sequence, below its smallest and below every key already staged
 * for it: SQLite numbers a new row one above its largest, so no insert takes one. Call it in the
 * transaction that stages the range's first rows, the lowest keys first (the next caller then takes
 * its range below them): the first of the range.
 */
export async function rowidsBelow(
  db: Kysely<any>,
  table: string,
  staged: { table: string; key: string },
  n: number,
): Promise<number | undefined> {
  if (storeKind(db) === 'postgres' || n === 0) return undefined;
  const { rows } = await sql<{ low: number }>`select min(0,
      coalesce((select min(rowid) from ${sql.table(table)}), 0),
      coalesce((select min(${sql.ref(staged.key)}) from ${sql.table(staged.table)}), 0)) as low`.execute(db);
  return Number(rows[0]!.low) - n;
}

/** Writes the search documents of the staged rows `rows`, under their keys, before the rows exist. */
export async function writeDocumentsAhead(db: Kysely<any>, doc: SearchDocument, rows: Staged): Promise<void> {
  if (storeKind(db) === 'postgres') return;
  // The card statement's document also carries the row's own key (its text id), as the trigger writes it.
  const carriesKey = doc.ftsKey !== 'rowid';
  await sql`insert into ${sql.table(doc.ftsTable)} (rowid, ${sql.raw(carriesKey ? `${doc.ftsKey}, ` : '')}text)
    select ${sql.ref(rows.key)}, ${sql.raw(carriesKey ? `${doc.key}, ` : '')}${joinedDocument(doc.columns)}
    from ${sql.table(rows.table)} where ${rows.where}`.execute(db);
}

/** Deletes the documents written ahead for staged rows that will never be inserted. */
export async function dropDocumentsAhead(db: Kysely<any>, doc: SearchDocument, rows: Staged): Promise<void> {
  if (storeKind(db) === 'postgres') return;
  await sql`delete from ${sql.table(doc.ftsTable)} where rowid in
    (select ${sql.ref(rows.key)} from ${sql.table(rows.table)} where ${rows.where})`.execute(db);
}
