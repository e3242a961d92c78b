// `q`, the statements' word search: every word of the query must appear in the transaction — in its
// description, notes, counterparty or merchant, or platform category (the search documents of
// migration 0020, indexed on both stores), or in the name of its company category or cost center —
// compared without case and accents, also inside longer words ("cafe" finds "Cafeteria" and "Café").
// Each row also carries the signature of its document's trigrams (server/lib/search-signature.ts),
// checked inside the ordered index a page walks, so only the rows that may match are read.
import { sql, type ExpressionBuilder, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database, Db } from '../../../db/database.js';
import { documentHolds, walksSearchPages, type SearchDocument } from '../../../db/dialect.js';
import { categoriesAndCostCenters } from '../../directory/public.js';
import { badRequest } from '../../../kit/errors.js';
import { fold, signatureOf } from '../../../lib/search-signature.js';

export const BANKING_DOCUMENT: SearchDocument = {
  key: 'id',
  columns: ['description', 'notes', 'source_destination_name', 'place_establishment', 'category_description'],
  ftsTable: 'banking_search',
  ftsKey: 'rowid',
};

export const CREDIT_CARD_DOCUMENT: SearchDocument = {
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
 * Each word with the company's categories and cost centers whose names hold it; with `page` (the
 * statement a page is read from), whether the page walks its ordered index: when at least 1 in 1,000
 * of the company's newest rows have a signature holding every word its own text must hold, a page's
 * rows are found within its first few thousand index entries, checked inside the index; otherwise
 * the matches are fetched from the trigram index and sorted. Summaries read every match: no `page`.
 */
export async function resolveSearch(
  db: Db,
  companyId: string,
  words: string[],
  page?: SearchDocument,
): Promise<SearchWord[]> {
  const { categories, costCenters } = await categoriesAndCostCenters(db, companyId);
  const named = words.map((word) => ({
    word,
    categoryIds: categories.filter((c) => fold(c.name).includes(word)).map((c) => c.id),
    costCenterIds: costCenters.filter((c) => fold(c.name).includes(word)).map((c) => c.id),
  }));
  const own = ownWords(named);
  const walk =
    page !== undefined &&
    walksSearchPages(db) &&
    own.length > 0 &&
    (await passing(
      db,
      page === BANKING_DOCUMENT ? 'banking_transactions' : 'credit_card_transactions',
      companyId,
      own,
    )) >= WALK_FROM;
  return walk ? named.map((w) => ({ ...w, walk })) : named;
}

/**
 * How many of the company's PROBE newest rows have a signature holding every word: counted inside
 * the ordered index from the PROBE-th newest row's time (rows sharing that instant count too).
 */
async function passing(db: Db, table: Row, companyId: string, words: string[]): Promise<number> {
  const store = db as Kysely<Database>;
  const oldest = await store
    .selectFrom(table)
    .select('transaction_date')
    .where('company_id', '=', companyId)
    .orderBy('transaction_date', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(PROBE - 1)
    .executeTakeFirst();
  let count = store
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('company_id', '=', companyId)
    .where(signatureHolds(words));
  if (oldest) count = count.where('transaction_date', '>=', oldest.transaction_date);
  const row = await count.executeTakeFirst();
  return Number(row?.n ?? 0);
}

type Row = 'banking_transactions' | 'credit_card_transactions';

/** The words only a row's own text can hold: no category or cost center name holds them. */
const ownWords = (words: readonly Omit<SearchWord, 'walk'>[]) =>
  words.filter((w) => w.categoryIds.length === 0 && w.costCenterIds.length === 0).map((w) => w.word);

/** The condition that a row's signature holds every trigram of `words`. */
function signatureHolds(words: string[]): Expression<SqlBool> {
  const [lo, hi] = signatureOf(words.join(' '));
  return sql<SqlBool>`(search_sig_lo & ${lo}) = ${lo} and (search_sig_hi & ${hi}) = ${hi}`;
}

/** The search signature's columns of a row, from its document's columns (absent columns count as empty). */
export function signatureColumns(doc: SearchDocument, row: object): { search_sig_lo: number; search_sig_hi: number } {
  const values = row as Record<string, unknown>;
  const [lo, hi] = signatureOf(doc.columns.map((c) => values[c] ?? '').join(' '));
  return { search_sig_lo: lo, search_sig_hi: hi };
}

/** A row to write, with its search signature. */
export const signed = <T extends object>(doc: SearchDocument, row: T) => ({ ...row, ...signatureColumns(doc, row) });

/** The condition of a search on a statement row: every word found somewhere. */
export function matchesSearch<T extends Row>(
  db: Db,
  doc: SearchDocument,
  words: readonly SearchWord[],
): (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool> {
  // A walked page: the words only a row's own text can hold (no category or cost center name holds
  // them) must have their trigrams in the row's signature, checked first, inside the index. (Where
  // the matches drive, the index of their words finds the rows: no signature to check.)
  const own = ownWords(words.filter((w) => w.walk));
  const signature = own.length > 0 ? [signatureHolds(own)] : [];
  return (eb) =>
    eb.and([
      ...signature,
      ...words.map(({ word, categoryIds, costCenterIds, walk }) => {
        const any: Expression<SqlBool>[] = [documentHolds(db, doc, word, walk) as unknown as Expression<SqlBool>];
        const e = eb as unknown as ExpressionBuilder<Database, 'banking_transactions'>;
        if (categoryIds.length > 0) any.push(e('custom_category_id', 'in', categoryIds) as Expression<SqlBool>);
        if (costCenterIds.length > 0) any.push(e('cost_center_id', 'in', costCenterIds) as Expression<SqlBool>);
        return any.length === 1 ? any[0]! : eb.or(any);
      }),
    ]);
}
