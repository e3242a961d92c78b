// The few expressions that differ between SQLite and PostgreSQL, for queries and migrations that are
// otherwise dialect-free. The kind is decided once by store.ts; here it is read back from the adapter
// a Kysely instance (or transaction) was built with.
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import { jsonArrayFrom as postgresJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';

export type StoreKind = 'sqlite' | 'postgres';

export const storeKind = (db: Kysely<any>): StoreKind =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';

/**
 * A time column compared through a no-op expression, so the planner cannot bound an index range
 * with it (the arm's ordered index keeps driving). Times are text on SQLite, timestamptz on PostgreSQL.
 */
export function unindexedTime(db: Kysely<any>, column: string): RawBuilder<string> {
  return storeKind(db) === 'postgres'
    ? sql<string>`(${sql.ref(column)} + interval '0 seconds')`
    : sql<string>`${sql.ref(column)} || ''`;
}

/** An integer column compared through a no-op expression (see `unindexedTime`). */
export function unindexedInteger(column: string): RawBuilder<number> {
  return sql<number>`${sql.ref(column)} + 0`;
}

/**
 * A page size written into the SQL text instead of bound: SQLite plans a keyset page with a known
 * LIMIT more cheaply than a bound one. Only ever a small safe integer.
 */
export function literalLimit(rows: number): RawBuilder<number> {
  if (!Number.isSafeInteger(rows) || rows < 0)
    throw new Error(`A row limit must be a non-negative integer, not ${rows}`);
  return sql.lit(rows) as RawBuilder<number>;
}

/**
 * The rows of a correlated subquery as one JSON array value, `[]` when it has none: a list of child
 * rows (a transaction's attachments) read in the parent's query instead of a query of its own. The
 * subquery selects named columns; its ORDER BY orders the array. Read the value with `jsonArray`.
 */
export function jsonArrayFrom<O>(
  db: Kysely<any>,
  subquery: Parameters<typeof sqliteJsonArrayFrom<O>>[0],
): RawBuilder<O[]> {
  return (storeKind(db) === 'postgres' ? postgresJsonArrayFrom(subquery) : sqliteJsonArrayFrom(subquery)) as RawBuilder<
    O[]
  >;
}

/**
 * The string at `key` of a JSON object kept as text in `column`, or null. `key` is one of the
 * contract's metadata keys (letters, digits, `_ . : -`), quoted whole in SQLite's path.
 */
export function jsonTextAt(db: Kysely<any>, column: string, key: string): RawBuilder<string | null> {
  return storeKind(db) === 'postgres'
    ? sql<string | null>`(${sql.ref(column)}::jsonb ->> ${key})`
    : sql<string | null>`json_extract(${sql.ref(column)}, ${`$."${key}"`})`;
}

/** A `jsonArrayFrom` value as read back: JSON text on SQLite, already parsed by the PostgreSQL driver. */
export const jsonArray = <T>(value: unknown): T[] =>
  typeof value === 'string' ? (JSON.parse(value) as T[]) : ((value as T[] | null) ?? []);

/**
 * A text searched by words (the statements' `q`): the row's `key`, the columns whose words it holds
 * and, on SQLite, the FTS5 trigram table (tokenizer `trigram remove_diacritics 1`) that indexes them,
 * keyed by `ftsKey`. On PostgreSQL the columns are joined as `foldedDocument` writes them and matched
 * through the pg_trgm GIN index built on that expression (the migration that declares the document
 * builds its index from this same function).
 */
export interface SearchDocument {
  key: string;
  columns: readonly string[];
  ftsTable: string;
  ftsKey: string;
}

/** A column, of the table `alias` in the query when given. */
export const columnOf = (column: string, alias?: string) => sql.ref(alias ? `${alias}.${column}` : column);

/** The columns joined by spaces, as written (of the table `alias` when given). */
export const joinedDocument = (columns: readonly string[], alias?: string): RawBuilder<string> =>
  sql<string>`${sql.join(
    columns.map((c) => sql`coalesce(${columnOf(c, alias)}, '')`),
    sql` || ' ' || `,
  )}`;

/** The columns joined by spaces, lower-cased and without accents (`finance_fold`, an IMMUTABLE SQL function). */
export const foldedDocument = (columns: readonly string[], alias?: string): RawBuilder<string> =>
  sql<string>`finance_fold(${joinedDocument(columns, alias)})`;

/**
 * The rows whose document holds `word` (already lower-cased and without accents, at least 3
 * characters: what a trigram index can look up) anywhere, also inside a longer word. `walk`: the
 * page's ordered index drives and each row's own text is checked, never looked up in the trigram
 * index; `alias`: the document's table in the query.
 */
export function documentHolds(
  db: Kysely<any>,
  doc: SearchDocument,
  word: string,
  walk = false,
  alias?: string,
): RawBuilder<boolean> {
  const pg = storeKind(db) === 'postgres';
  const escaped = word.replace(/[\\%_]/g, (c) => `\\${c}`);
  const pattern = `%${escaped}%`;
  if (pg) {
    // Walked: written so that the trigram index cannot serve it (its planner would fetch and sort
    // every match of a common word); else the pg_trgm GIN index or the page's order, as it judges.
    return walk
      ? sql<boolean>`(${foldedDocument(doc.columns, alias)} || '') like ${pattern}`
      : sql<boolean>`${foldedDocument(doc.columns, alias)} like ${pattern}`;
  }
  if (walk) {
    // A text of printable ASCII only folds to its lower case, which SQLite's LIKE already ignores:
    // it is matched natively; only the others pay for the call to `finance_fold` (sqlite.ts).
    const text = joinedDocument(doc.columns, alias);
    return sql<boolean>`(case when ${text} glob '*[^ -~]*'
      then finance_fold(${text}) like ${pattern} escape '\\' else ${text} like ${pattern} escape '\\' end)`;
  }
  // Few matches: they drive (fetched by key from the trigram index, then sorted).
  return sql<boolean>`${columnOf(doc.key, alias)} in (select ${sql.ref(doc.ftsKey)} from ${sql.table(doc.ftsTable)} where ${sql.table(doc.ftsTable)} match ${ftsPhrase(word)})`;
}

const ftsPhrase = (word: string) => `"${word.replace(/"/g, '""')}"`;

/**
 * How a page of a search walks its ordered index (store/search.ts). SQLite's indexes carry the
 * signature, checked entry by entry inside the index ('in-index'). PostgreSQL's planner cannot tell
 * how many rows a signature's bitwise test passes (it takes it for a rare equality, and would fetch
 * and sort every match instead of walking), so there a walk is an ordered subquery bounded to a number
 * of entries, which it can only read in order ('bounded'); a page it leaves short is read again
 * without walking.
 */
export const searchWalk = (db: Kysely<any>): 'in-index' | 'bounded' =>
  storeKind(db) === 'postgres' ? 'bounded' : 'in-index';

/**
 * The UTC quarter-hour an instant column falls in, as `YYYY-MM-DDTHH:M` (M: 0, 15, 30 or 45): every
 * time zone's offset is a whole number of quarter-hours, so rows grouped by it can be folded into
 * the calendar days of any zone (the summaries' `day` and `month`).
 */
export function utcQuarterHour(db: Kysely<any>, column: string): RawBuilder<string> {
  if (storeKind(db) === 'postgres') {
    const utc = sql`(${sql.ref(column)} at time zone 'UTC')`;
    return sql<string>`to_char(${utc}, 'YYYY-MM-DD"T"HH24:') || (floor(extract(minute from ${utc}) / 15) * 15)::int`;
  }
  return sql<string>`substr(${sql.ref(column)}, 1, 14) || ((cast(substr(${sql.ref(column)}, 15, 2) as integer) / 15) * 15)`;
}
