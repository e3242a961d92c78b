// What an ERP keeps on a transaction: its metadata (merged by the PATCH) and which of the
// transaction's columns it posts, so that a change to one after posting makes the sync out of date.
import { sql } from 'kysely';
import type { AccountingSyncStatus } from '../tables.js';

/**
 * The columns an ERP's journal entry carries of a transaction (its notes as the entry's memo, its
 * category and cost center as the accounts); amounts are the ingest's and never change by PATCH.
 * Metadata is the ERP's own and reconciliation is not posted: neither makes a sync out of date.
 */
export const POSTED_COLUMNS = ['notes', 'custom_category_id', 'cost_center_id'] as const;

/** A row's sync state once a posted column changed in a statement that writes many rows: SYNCED becomes OUT_OF_DATE. */
export const postedChanged = sql<AccountingSyncStatus>`(CASE WHEN sync_status = 'SYNCED' THEN 'OUT_OF_DATE' ELSE sync_status END)`;

/**
 * `stored` (the row's JSON object) with `patch` merged in: keys set to their value, a key sent as
 * null removed, the others kept. Keys in order, so equal metadata is equal text (a PATCH that
 * changes nothing writes nothing).
 */
export function mergedMetadata(stored: string, patch: Record<string, string | null>): string {
  // A Map: a key such as `__proto__` is a key like any other.
  const merged = new Map(Object.entries(JSON.parse(stored) as Record<string, string>));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  const keys = [...merged.keys()].sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(merged.get(key))}`).join(',')}}`;
}
