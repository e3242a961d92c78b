// `q`, the statements' word search: every word of the query must appear in the transaction — in its
// description, notes, counterparty or merchant, or platform category (the search documents of
// migration 0020, indexed on both stores), or in the name of its company category or cost center —
// compared without case and accents, also inside longer words ("cafe" finds "Cafeteria" and "Café").
// Each row also carries the signature of its document's trigrams (server/lib/search-signature.ts),
// checked inside the ordered index a page walks, so only the rows that may match are read.
import {
  sql,
  type ExpressionBuilder,
  type Expression,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { Database, Db } from '../../../db/database.js';
import { columnOf, documentHolds, literalLimit, searchWalk, type SearchDocument } from '../../../db/dialect.js';
import { categoriesAndCostCenters } from '../../directory/public.js';
import { badRequest } from '../../../kit/errors.js';
import { fold, signatureOf } from '../../../lib/search-signature.js';

type Row = 'banking_transactions' | 'credit_card_transactions';

/** A statement's search document, with the table its rows are in. */
interface StatementDocument extends SearchDocument {
  table: Row;
}

export const BANKING_DOCUMENT: StatementDocument = {
  table: 'banking_transactions',
  key: 'id',
  columns: ['description', 'notes', 'source_destination_name', 'place_establishment', 'category_description'],
  ftsTable: 'banking_search',
  ftsKey: 'rowid',
};

export const CREDIT_CARD_DOCUMENT: StatementDocument = {
  table: 'credit_card_transactions',
  key: 'id',
  columns: ['description', 'notes', 'merchant_name', 'category_description'],
  ftsTable: 'credit_card_search',
  ftsKey: 'id',
};

/** The shortest word searched: what a trigram index can look up. */
const MIN_WORD = 3;

/** The words of `q`, folded, without repeats, in order; 400 when none has 3 characters. */
export function searchWords(q: string): string[] {
  const words = [
    ...new Set(
      fold(q)
        .split(/\s+/)
        .filter((w) => w.length >= MIN_WORD),
    ),
  ];
  if (words.length === 0)
    throw badRequest('q must hold a word of at least 3 characters', undefined, { reason: 'invalid_value', param: 'q' });
  return words.slice(0, 10);
}

/** One word of a search: the company's categories and cost centers whose name holds it. */
export interface SearchWord {
  word: string;
  categoryIds: number[];
  costCenterIds: string[];
  /** A page walks its ordered index checking each row (every word is common); else the matches drive. */
  walk?: boolean;
}

/**
 * The company's newest rows a page's walk is judged on, and how many of them must pass: at 1 in
 * 1,000 a page of 50 walks 50,000 index entries (about 2.5 ms on SQLite), as long as fetching and
 * sorting the matches of a word that common on a statement of a few hundred thousand rows. The probe
 * reads its 2,000 entries from the same index (about 0.1 ms).
 */
const PROBE = 2_000;
const WALK_FROM = 2;
/**
 * The index entries a bounded walk reads per row of its page (PostgreSQL, dialect.ts `searchWalk`):
 * a word held by 1 row in 100 fills a page within half of them. A page left short is read again
 * with the matches driving, so the walk costs a rare word at most a few thousand entries (about
 * 1 ms), where judging it first, as on SQLite, costs about as much on every search.
 */
const ENTRIES_PER_ROW = 200;

/**
 * Each word with the company's categories and cost centers whose names hold it; with `page` (the
 * statement a page is read from), whether the page walks its ordered index. Where a walk is bounded
 * (PostgreSQL) it is tried whenever a word must be in the row's own text. Otherwise it is judged:
 * when at least 1 in 1,000 of the company's newest rows hold every word their own text must hold, a
 * page's rows are found within its first few thousand index entries, checked inside the index;
 * otherwise the matches are fetched from the trigram index and sorted. Summaries read every match:
 * no `page`.
 */
export async function resolveSearch(
  db: Db,
  companyId: string,
  words: string[],
  page?: StatementDocument,
): Promise<SearchWord[]> {
  const { categories, costCenters } = await categoriesAndCostCenters(db, companyId);
  const named = words.map((word) => ({
    word,
    categoryIds: categories.filter((c) => fold(c.name).includes(word)).map((c) => c.id),
    costCenterIds: costCenters.filter((c) => fold(c.name).includes(word)).map((c) => c.id),
  }));
  const own = ownWords(named);
  if (page === undefined || own.length === 0) return named;
  const walk = searchWalk(db) === 'bounded' || (await commonAmongNewest(db, page, companyId, own));
  return walk ? named.map((w) => ({ ...w, walk })) : named;
}

/** The entries a walked page of `take` rows reads where walks are bounded (dialect.ts `searchWalk`), else undefined. */
export const boundedWalk = (db: Db, words: readonly SearchWord[] | undefined, take: number): number | undefined =>
  searchWalk(db) === 'bounded' && words?.some((w) => w.walk) ? take * ENTRIES_PER_ROW : undefined;

/** The same words, their matches driving: a bounded walk's short page is read again so. */
export const unwalked = (words: readonly SearchWord[]): SearchWord[] => words.map(({ walk: _, ...w }) => w);

/**
 * Whether WALK_FROM of the company's PROBE newest rows hold every word: each row's signature checked
 * inside the ordered index from the PROBE-th newest row's time (rows sharing that instant count too),
 * then the text of those it passes (a signature may pass a word no row holds: a longer document sets
 * more of its bits), stopping at the WALK_FROM-th.
 */
async function commonAmongNewest(db: Db, doc: StatementDocument, companyId: string, words: string[]) {
  const store = db as Kysely<Database>;
  const { table } = doc;
  const oldest = await store
    .selectFrom(table)
    .select('transaction_date')
    .where('company_id', '=', companyId)
    .orderBy('transaction_date', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(PROBE - 1)
    .executeTakeFirst();
  let matches = store
    .selectFrom(table)
    .select('id')
    .where('company_id', '=', companyId)
    .where(signatureHolds(words))
    .where((eb) => eb.and(words.map((word) => documentHolds(db, doc, word, true) as unknown as Expression<SqlBool>)));
  if (oldest) matches = matches.where('transaction_date', '>=', oldest.transaction_date);
  return (await matches.limit(WALK_FROM).execute()).length >= WALK_FROM;
}

/** The words only a row's own text can hold: no category or cost center name holds them. */
const ownWords = (words: readonly Omit<SearchWord, 'walk'>[]) =>
  words.filter((w) => w.categoryIds.length === 0 && w.costCenterIds.length === 0).map((w) => w.word);

/** The condition that a row's signature (of the table `alias` when given) holds every trigram of `words`. */
function signatureHolds(words: string[], alias?: string): Expression<SqlBool> {
  const [lo, hi] = signatureOf(words.join(' '));
  const [loColumn, hiColumn] = [columnOf('search_sig_lo', alias), columnOf('search_sig_hi', alias)];
  return sql<SqlBool>`(${loColumn} & ${lo}) = ${lo} and (${hiColumn} & ${hi}) = ${hi}`;
}

/** The search signature's columns of a row, from its document's columns (absent columns count as empty). */
export function signatureColumns(doc: SearchDocument, row: object): { search_sig_lo: number; search_sig_hi: number } {
  const values = row as Record<string, unknown>;
  const [lo, hi] = signatureOf(doc.columns.map((c) => values[c] ?? '').join(' '));
  return { search_sig_lo: lo, search_sig_hi: hi };
}

/** A row to write, with its search signature. */
export const signed = <T extends object>(doc: SearchDocument, row: T) => ({ ...row, ...signatureColumns(doc, row) });

/**
 * A walked page's first condition: the words only a row's own text can hold (no category or cost
 * center name holds them) have their trigrams in its signature, checked inside the index; none where
 * the matches drive (the index of their words finds the rows). `alias`: the table in the query.
 */
function signatureMatches(words: readonly SearchWord[], alias?: string): Expression<SqlBool> | undefined {
  const own = ownWords(words.filter((w) => w.walk));
  return own.length > 0 ? signatureHolds(own, alias) : undefined;
}

/** The condition that every word is found in the row, its category's or its cost center's name. */
function textMatches<T extends Row>(
  db: Db,
  doc: SearchDocument,
  words: readonly SearchWord[],
  alias?: string,
): (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool> {
  return (eb) =>
    eb.and(
      words.map(({ word, categoryIds, costCenterIds, walk }) => {
        const any: Expression<SqlBool>[] = [
          documentHolds(db, doc, word, walk, alias) as unknown as Expression<SqlBool>,
        ];
        if (categoryIds.length > 0)
          any.push(eb(columnOf('custom_category_id', alias), 'in', categoryIds) as Expression<SqlBool>);
        if (costCenterIds.length > 0)
          any.push(eb(columnOf('cost_center_id', alias), 'in', costCenterIds) as Expression<SqlBool>);
        return any.length === 1 ? any[0]! : eb.or(any);
      }),
    );
}

/** The condition of a search on a statement row: its signature first (a walked page), then its words. */
export function matchesSearch<T extends Row>(
  db: Db,
  doc: SearchDocument,
  words: readonly SearchWord[],
): (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool> {
  const signature = signatureMatches(words);
  const text = textMatches<T>(db, doc, words);
  return (eb) => (signature ? eb.and([signature, text(eb)]) : text(eb));
}

/**
 * A bounded walk's arm (dialect.ts `searchWalk`): of `entries` (an arm's first entries in its order:
 * `id`, the sort key `key` and the signature), those whose signature, then whose row, holds the
 * words, in the same order, up to `take`. Their ids and sort keys, as the arm's query selects them.
 */
export function walkedArm<Q>(
  db: Db,
  doc: StatementDocument,
  words: readonly SearchWord[],
  entries: SelectQueryBuilder<Database, Row, object>,
  order: { key: string; direction: 'asc' | 'desc'; take: number },
): Q {
  const { key, direction, take } = order;
  const signature = signatureMatches(words, 'w');
  const [id, sortKey] = [sql.ref<number>('w.id'), sql.ref<string | number>(`w.${key}`)];
  // `t` is either statement's table, typed as one: only its id and its document's columns are read.
  return db
    .selectFrom(entries.as('w'))
    .innerJoin(`${doc.table} as t` as 'banking_transactions as t', (join) => join.on('t.id', '=', id))
    .select([id.as('id'), sortKey.as(key)])
    .$if(signature !== undefined, (query) => query.where(signature!))
    .where(textMatches(db, doc, words, 't') as never)
    .orderBy(sortKey, direction)
    .orderBy(id, direction)
    .limit(literalLimit(take)) as Q;
}
