// Stored first responses of Idempotency-Key requests (table idempotency_keys, migration 0008).
// A key is claimed by inserting its row ("running"); the first response replaces it ("done").
// The response body is kept encrypted (lib/aead.ts) under its own key: a card issue's answer carries
// the card number.
import type { Db } from '../db/database.js';
import type { IdempotencyKeyRow } from './tables.js';
import { open, seal } from '../lib/aead.js';

/** How long a stored response is replayed. */
const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** A running request whose process died frees its key after this long. */
const LOCK_TTL_MS = 2 * 60 * 1000;

export interface KeyScope {
  companyId: string;
  clientId: string;
  key: string;
}

interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

type Claim =
  | { kind: 'claimed' }
  | { kind: 'mismatch' }
  | { kind: 'running' }
  | { kind: 'replay'; response: StoredResponse };

const aad = (s: KeyScope) => `idempotency:${s.companyId}:${s.clientId}:${s.key}`;

/** The stored body, opened with the first of `keys` that sealed it. */
function openBody(keys: readonly Buffer[], s: KeyScope, sealed: string): Buffer {
  for (const [i, key] of keys.entries()) {
    try {
      return Buffer.from(open(key, aad(s), sealed).toString('utf8'), 'base64');
    } catch (err) {
      if (i === keys.length - 1) throw err;
    }
  }
  throw new Error('no key to open a stored response');
}

async function readKey(db: Db, s: KeyScope): Promise<IdempotencyKeyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('company_id', '=', s.companyId)
    .where('client_id', '=', s.clientId)
    .where('key', '=', s.key)
    .executeTakeFirst();
}

function decide(
  row: IdempotencyKeyRow,
  fingerprint: string,
  keys: readonly Buffer[],
  s: KeyScope,
  now: Date,
): Claim | undefined {
  if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
  if (row.status === 'done' && row.response_status !== null && row.response_body !== null) {
    return {
      kind: 'replay',
      response: {
        status: row.response_status,
        headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>,
        body: openBody(keys, s, row.response_body),
      },
    };
  }
  if (row.locked_until > now.toISOString()) return { kind: 'running' };
  return undefined;
}

/**
 * Claims `s` for a request with `fingerprint`: 'claimed' when this request runs; otherwise what to
 * answer instead (the stored response, 409 while another runs, 422 for another request).
 */
/** `keys`: the first seals, any of them opens (an older key while its responses have not expired). */
export async function claimKey(
  db: Db,
  keys: readonly Buffer[],
  s: KeyScope,
  fingerprint: string,
  now: Date,
): Promise<Claim> {
  const at = now.toISOString();
  // An expired key is forgotten; a crashed request's lock is taken over.
  await db
    .deleteFrom('idempotency_keys')
    .where('company_id', '=', s.companyId)
    .where('client_id', '=', s.clientId)
    .where('key', '=', s.key)
    .where('expires_at', '<=', at)
    .execute();
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      company_id: s.companyId,
      client_id: s.clientId,
      key: s.key,
      fingerprint,
      status: 'running',
      locked_until: new Date(now.getTime() + LOCK_TTL_MS).toISOString(),
      response_status: null,
      response_headers: null,
      response_body: null,
      created_at: at,
      expires_at: new Date(now.getTime() + KEY_TTL_MS).toISOString(),
    })
    .onConflict((oc) => oc.columns(['company_id', 'client_id', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { kind: 'claimed' };

  const row = await readKey(db, s);
  if (!row) return claimKey(db, keys, s, fingerprint, now);
  const decided = decide(row, fingerprint, keys, s, now);
  if (decided) return decided;
  // Same request, its lock expired: take it over, if nobody else did first.
  const taken = await db
    .updateTable('idempotency_keys')
    .set({ locked_until: new Date(now.getTime() + LOCK_TTL_MS).toISOString() })
    .where('company_id', '=', s.companyId)
    .where('client_id', '=', s.clientId)
    .where('key', '=', s.key)
    .where('status', '=', 'running')
    .where('locked_until', '=', row.locked_until)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1 ? { kind: 'claimed' } : { kind: 'running' };
}

/** Stores the first response of a claimed key. */
export async function completeKey(db: Db, key: Buffer, s: KeyScope, response: StoredResponse): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      status: 'done',
      response_status: response.status,
      response_headers: JSON.stringify(response.headers),
      response_body: seal(key, aad(s), response.body.toString('base64')),
    })
    .where('company_id', '=', s.companyId)
    .where('client_id', '=', s.clientId)
    .where('key', '=', s.key)
    .where('status', '=', 'running')
    .execute();
}

/** Frees a claimed key without storing anything (5xx, an aborted request): a retry runs again. */
export async function releaseKey(db: Db, s: KeyScope): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('company_id', '=', s.companyId)
    .where('client_id', '=', s.clientId)
    .where('key', '=', s.key)
    .where('status', '=', 'running')
    .execute();
}

/** Deletes keys past their 24 hours. */
export async function purgeKeys(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
