// The statements' change feeds: everything that changed since a cursor, following `hasMore`.
//   const first = await finance.sync.bankingTransactions();          // the initial sync
//   const later = await finance.sync.bankingTransactions(first.nextCursor);
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

export interface SyncFeeds {
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

async function follow<T extends { id: unknown }>(
  client: Client<paths>,
  path: string,
  cursor: string | undefined,
  query: object | undefined,
  options: SyncOptions | undefined,
) {
  const get = client.GET as unknown as LooseGet;
  // Insertion order is change order; a later state of one transaction replaces its earlier one.
  const changed = new Map<unknown, { item: T; added: boolean }>();
  const removed = new Map<unknown, { id: unknown }>();
  for (;;) {
    const params = { query: { ...query, ...(cursor === undefined ? {} : { cursor }) } };
    const page = (await unwrap(get(path, { params, signal: options?.signal }))) as Page<T>;
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
    if (!page.hasMore) break;
  }
  const all = [...changed.values()];
  return {
    added: all.filter((c) => c.added).map((c) => c.item),
    modified: all.filter((c) => !c.added).map((c) => c.item),
    removed: [...removed.values()],
    nextCursor: cursor,
  };
}

export function syncFeeds(client: Client<paths>): SyncFeeds {
  return {
    bankingTransactions: (cursor, query, options) =>
      follow(client, '/statements/v1/banking/sync', cursor, query, options) as never,
    creditCardTransactions: (cursor, query, options) =>
      follow(client, '/statements/v1/credit-card/sync', cursor, query, options) as never,
  };
}
