// The filters on what an ERP keeps on a transaction, shared by both statements' lists and feeds:
// `metadata[key]=value` (exact, every key given) and `syncStatus` (any of the states). No index
// leads with them: a page walks its usual index and checks them on each row.
import type { Db } from '../../../db/database.js';
import { jsonTextAt } from '../../../db/dialect.js';
import type { AccountingSyncStatus } from '../tables.js';

export interface ErpFilters {
  metadata?: Array<[string, string]>;
  syncStatus?: AccountingSyncStatus[];
}

/** The filters of a list or feed query, normalized (sorted, no repeats) so equal queries bind equal cursors; undefined when none. */
export function erpFilters(query: {
  metadata?: Record<string, string>;
  syncStatus?: AccountingSyncStatus[];
}): ErpFilters | undefined {
  const metadata = query.metadata && Object.keys(query.metadata).length > 0 ? query.metadata : undefined;
  if (metadata === undefined && query.syncStatus === undefined) return undefined;
  return {
    ...(metadata ? { metadata: Object.entries(metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) } : {}),
    ...(query.syncStatus ? { syncStatus: [...new Set(query.syncStatus)].sort() } : {}),
  };
}

/** `query` keeping only the rows every given filter keeps; `alias` the statement table's, when the query names it. */
export function withErpFilters<Q>(db: Db, query: Q, filters: ErpFilters | undefined, alias?: string): Q {
  if (filters === undefined) return query;
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  // The statements' tables share these columns; the builder is typed for one of them.
  let out = query as unknown as { where: (...args: unknown[]) => typeof out };
  for (const [key, value] of filters.metadata ?? [])
    out = out.where(jsonTextAt(db, column('metadata'), key), '=', value);
  if (filters.syncStatus) out = out.where(column('sync_status'), 'in', filters.syncStatus);
  return out as unknown as Q;
}
