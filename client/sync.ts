// The statements' change feeds, a page at a time or all at once.
//   for await (const page of finance.sync.bankingPages({ cursor })) {  // checkpoint after every page
//     upsert(page.added, page.modified); drop(page.removed); await save(page.nextCursor);
//   }
//   const later = await finance.sync.bankingTransactions(cursor);      // every page, then the cursor
// `added` and `modified` are both upserts: `added` is what this cursor's client was not sent yet.
// Each transaction comes once, in its latest state: one modified again on a later page replaces its
// earlier state (and stays `added` if it was new), one removed leaves `added`/`modified` for `removed`.
// A refused call throws a FinanceApiError; `reason: 'sync_restart_required'` (410) means: call again
// without a cursor and replace your copy.
import type { Client } from 'openapi-fetch';
import type { components, operations, paths } from './generated/openapi.js';
import { unwrap } from './errors.js';

type Schemas = components['schemas'];
type QueryOf<K extends keyof operations> = Omit<NonNullable<operations[K]['parameters']['query']>, 'cursor'>;

export type BankingSyncQuery = QueryOf<'listBankingTransactionChanges'>;
export type CreditCardSyncQuery = QueryOf<'listCreditCardTransactionChanges'>;

export interface SyncOptions {
  /** Aborts the request in flight. */
  signal?: AbortSignal;
}

/** What changed since the cursor, after following every page. Keep `nextCursor` for the next call. */
export interface SyncResult<T> {
  added: T[];
  modified: T[];
  removed: Array<{ id: T extends { id: infer I } ? I : never }>;
  nextCursor: string;
}

/** One answer of a feed; save `nextCursor` once it is applied (a crash resumes there). */
export interface SyncPage<T> {
  added: T[];
  modified: T[];
  removed: Array<{ id: T extends { id: infer I } ? I : never }>;
  nextCursor: string;
  hasMore: boolean;
}

export interface SyncPagesOptions<Q> extends SyncOptions {
  /** Where to start: a saved `nextCursor`; omitted, the initial sync. */
  cursor?: string;
  query?: Q;
}

export interface SyncFeeds {
  /** Every page of the banking feed from the cursor until `hasMore` is false, one at a time. */
  bankingPages(options?: SyncPagesOptions<BankingSyncQuery>): AsyncGenerator<SyncPage<Schemas['BankingTransaction']>>;
  /** Every page of the credit-card feed from the cursor until `hasMore` is false, one at a time. */
  creditCardPages(
    options?: SyncPagesOptions<CreditCardSyncQuery>,
  ): AsyncGenerator<SyncPage<Schemas['CreditCardTransaction']>>;
  bankingTransactions(
    cursor?: string,
    query?: BankingSyncQuery,
    options?: SyncOptions,
  ): Promise<SyncResult<Schemas['BankingTransaction']>>;
  creditCardTransactions(
    cursor?: string,
    query?: CreditCardSyncQuery,
    options?: SyncOptions,
  ): Promise<SyncResult<Schemas['CreditCardTransaction']>>;
}

type Page<T> = { added: T[]; modified: T[]; removed: Array<{ id: unknown }>; nextCursor: string; hasMore: boolean };
type LooseGet = (
  path: string,
  init: { params: { query: Record<string, unknown> }; signal?: AbortSignal },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** The feed's pages from `cursor` until `hasMore` is false. */
async function* pages<T>(
  client: Client<paths>,
  path: string,
  { cursor, query, signal }: SyncPagesOptions<object> = {},
): AsyncGenerator<Page<T>> {
  const get = client.GET as unknown as LooseGet;
  for (;;) {
    const params = { query: { ...query, ...(cursor === undefined ? {} : { cursor }) } };
    const page = (await unwrap(get(path, { params, signal }))) as Page<T>;
    yield page;
    cursor = page.nextCursor;
    if (!page.hasMore) return;
  }
}

/** Every page folded into one answer: each transaction once, in its latest state. */
async function follow<T extends { id: unknown }>(feed: AsyncGenerator<Page<T>>, cursor: string | undefined) {
  // Insertion order is change order; a later state of one transaction replaces its earlier one.
  const changed = new Map<unknown, { item: T; added: boolean }>();
  const removed = new Map<unknown, { id: unknown }>();
  for await (const page of feed) {
    for (const [items, added] of [
      [page.added, true],
      [page.modified, false],
    ] as const) {
      for (const item of items) {
        const before = changed.get(item.id);
        changed.delete(item.id);
        removed.delete(item.id);
        changed.set(item.id, { item, added: before?.added ?? added });
      }
    }
    for (const gone of page.removed) {
      const before = changed.get(gone.id);
      changed.delete(gone.id);
      if (!before?.added) removed.set(gone.id, gone);
    }
    cursor = page.nextCursor;
  }
  const all = [...changed.values()];
  return {
    added: all.filter((c) => c.added).map((c) => c.item),
    modified: all.filter((c) => !c.added).map((c) => c.item),
    removed: [...removed.values()],
    nextCursor: cursor,
  };
}

const BANKING = '/statements/v1/banking/sync';
const CREDIT_CARD = '/statements/v1/credit-card/sync';

export function syncFeeds(client: Client<paths>): SyncFeeds {
  return {
    bankingPages: (options) => pages(client, BANKING, options) as never,
    creditCardPages: (options) => pages(client, CREDIT_CARD, options) as never,
    bankingTransactions: (cursor, query, options) =>
      follow(pages<{ id: unknown }>(client, BANKING, { ...options, cursor, query }), cursor) as never,
    creditCardTransactions: (cursor, query, options) =>
      follow(pages<{ id: unknown }>(client, CREDIT_CARD, { ...options, cursor, query }), cursor) as never,
  };
}
