// `q`, the statements' word search: every word of the query must appear in the transaction — in its
// description, notes, counterparty or merchant, or platform category (the search documents of
// migration 0020, indexed on both stores), or in the name of its company category or cost center —
// compared without case and accents, also inside longer words ("cafe" finds "Cafeteria" and "Café").
// Each row also carries the signature of its document's trigrams (server/lib/search-signature.ts),
// checked inside the ordered index a page walks, so only the rows that may match are read.
import type { ExpressionBuilder, Expression, SqlBool } from 'kysely';
import type { Database, Db } from '../../../db/database.js';
import { documentHolds, documentMatches, type SearchDocument } from '../../../db/dialect.js';
import { categoriesAndCostCenters } from '../../directory/public.js';
import { badRequest } from '../../../kit/errors.js';
import { fold, signatureOf } from '../../../lib/search-signature.js';
import { sql } from 'kysely';

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

/** Matches (of every company) from which walking a page's ordered index beats fetching and sorting them. */
const WALK_FROM = 2_000;

/**
 * Each word with the company's categories and cost centers whose names hold it; with `page` (the
 * statement a page is read from), whether the page walks its ordered index: when every word is held
 * by at least WALK_FROM rows, a page's rows are found within its first few hundred; otherwise the
 * rarest word's few matches are fetched and sorted. Summaries read every match: no `page`.
 */
export async function resolveSearch(
  db: Db,
  companyId: string,
  words: string[],
  page?: SearchDocument,
): Promise<SearchWord[]> {
  const { categories, costCenters } = await categoriesAndCostCenters(db, companyId);
  const counts = page ? await Promise.all(words.map((w) => documentMatches(db, page, w, WALK_FROM))) : [];
  const walk = counts.length > 0 && counts.every((n) => n !== undefined && n >= WALK_FROM);
  return words.map((word) => ({
    word,
    categoryIds: categories.filter((c) => fold(c.name).includes(word)).map((c) => c.id),
    costCenterIds: costCenters.filter((c) => fold(c.name).includes(word)).map((c) => c.id),
    ...(walk ? { walk } : {}),
  }));
}

type Row = 'banking_transactions' | 'credit_card_transactions';

/** The search signature's columns of a row, from its document's columns (absent columns count as empty). */
export function signatureColumns(doc: SearchDocument, row: object): { search_sig_lo: bigint; search_sig_hi: bigint } {
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
  // The words only a row's own text can hold (no category or cost center name holds them): the
  // row's signature must hold their trigrams, checked first, inside the index.
  const own = words.filter((w) => w.categoryIds.length === 0 && w.costCenterIds.length === 0);
  const [lo, hi] = signatureOf(own.map((w) => w.word).join(' '));
  const signature =
    own.length > 0
      ? [sql<SqlBool>`(search_sig_lo & ${lo}) = ${lo}`, sql<SqlBool>`(search_sig_hi & ${hi}) = ${hi}`]
      : [];
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
