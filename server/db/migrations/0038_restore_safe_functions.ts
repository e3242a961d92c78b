// PostgreSQL: `finance_fold` (migration 0020) found the unaccent function and dictionary through the
// session's search_path. pg_restore runs with an empty one, so creating the word-search indexes on
// it failed ("text search dictionary unaccent does not exist"), the restore went on without them and
// every search scanned. The function now names the schema of everything it calls (what PostgreSQL
// advises for code that runs under any search_path; a SET search_path clause would also do, but then
// every call sets and restores the setting: each index entry written, each row a search rechecks). It
// returns what it returned before, so the indexes built on it stay valid. A database that lost them
// (restored before this) gets them back here, built CONCURRENTLY: writes go on meanwhile. So this
// migration runs outside a transaction (migrate-postgres.ts), and every step is safe to run again.
// The trigger functions (0025, 0028, 0032) name nothing the search_path finds. SQLite: nothing to do.
import { sql, type Kysely } from 'kysely';
import { foldedDocument, storeKind } from '../dialect.js';

/** Runs without a transaction around it: CREATE INDEX CONCURRENTLY cannot run inside one. */
export const outsideTransaction = true;

/** The word-search indexes and the columns they fold, as migration 0020 declares them. */
export const SEARCH_INDEXES = [
  {
    name: 'banking_transactions_search',
    table: 'banking_transactions',
    columns: ['description', 'notes', 'source_destination_name', 'place_establishment', 'category_description'],
  },
  {
    name: 'credit_card_transactions_search',
    table: 'credit_card_transactions',
    columns: ['description', 'notes', 'merchant_name', 'category_description'],
  },
] as const;

/** `finance_fold`, naming the schema the unaccent extension lives in (created there if missing). */
export async function defineFold(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists unaccent`.execute(db);
  const { rows } = await sql<{ schema: string }>`select quote_ident(n.nspname) as schema
    from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(db);
  const schema = rows[0]!.schema;
  const dictionary = sql.lit(`${schema}.unaccent`);
  await sql`create or replace function finance_fold(text) returns text language sql immutable parallel safe strict
    as $$ select pg_catalog.lower(${sql.raw(schema)}.unaccent(${dictionary}::pg_catalog.regdictionary, $1)) $$`.execute(
    db,
  );
}

/**
 * Builds the word-search indexes that are missing, CONCURRENTLY (outside any transaction); one left
 * invalid by a build that failed part-way is dropped first. An index in place is left alone.
 */
export async function buildSearchIndexes(db: Kysely<any>): Promise<string[]> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  const built: string[] = [];
  for (const index of SEARCH_INDEXES) {
    const { rows } = await sql<{ valid: boolean }>`select i.indisvalid as valid from pg_index i
      where i.indexrelid = to_regclass(${index.name})`.execute(db);
    if (rows[0]?.valid) continue;
    if (rows[0]) await sql`drop index concurrently if exists ${sql.id(index.name)}`.execute(db);
    await sql`create index concurrently ${sql.id(index.name)} on ${sql.table(index.table)}
      using gin (${foldedDocument(index.columns)} gin_trgm_ops)`.execute(db);
    built.push(index.name);
  }
  return built;
}

export async function up(db: Kysely<any>): Promise<void> {
  if (storeKind(db) !== 'postgres') return;
  await defineFold(db);
  await buildSearchIndexes(db);
}
