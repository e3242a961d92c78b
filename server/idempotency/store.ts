// Idempotency keys (table idempotency_keys, migrations 0008 and 0034). A key is claimed by inserting
// its row ("running", with a random owner and a short lease the running request keeps renewing); the
// request's writes record their outcome on the row inside their own transactions (`recordOutcome`),
// so a write that committed always left its trace on the key, whatever happens to the connection or
// the process; the first answer then replaces the lease ("done"). Bodies and outcomes are kept
// encrypted (lib/aead.ts) under their own key: a card issue's answer carries the card number.
import { randomUUID } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import type { ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../db/database.js';
import type { IdempotencyKeyRow } from './tables.js';
import { open, seal } from '../lib/aead.js';

/** How long a stored response is replayed. */
const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim's lease: a running request renews it every third of this (`renewKey`), so a key whose
 * process died is free again within this long (and its committed writes replay, never run again).
 */
export const LEASE_MS = 10_000;

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

/** A claim this request holds: `owner` proves it; `outcome`, what an earlier attempt's writes committed. */
export interface HeldClaim {
  kind: 'claimed';
  owner: string;
  outcome: readonly unknown[];
}

type Claim = HeldClaim | { kind: 'mismatch' } | { kind: 'running' } | { kind: 'replay'; response: StoredResponse };

const aad = (s: KeyScope) => `idempotency:${s.companyId}:${s.clientId}:${s.key}`;
const outcomeAad = (s: KeyScope) => `${aad(s)}:outcome`;

/** What the first of `keys` that sealed it opens. */
function openWith(keys: readonly Buffer[], associatedData: string, sealed: string): Buffer {
  for (const [i, key] of keys.entries()) {
    try {
      return open(key, associatedData, sealed);
    } catch (err) {
      if (i === keys.length - 1) throw err;
    }
  }
  throw new Error('no key to open a stored value');
}

const openBody = (keys: readonly Buffer[], s: KeyScope, sealed: string): Buffer =>
  Buffer.from(openWith(keys, aad(s), sealed).toString('utf8'), 'base64');

const openOutcome = (keys: readonly Buffer[], s: KeyScope, sealed: string | null): unknown[] =>
  sealed === null ? [] : (deserialize(openWith(keys, outcomeAad(s), sealed)) as unknown[]);

/** The key's row. */
const ofScope = (s: KeyScope) => (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
  eb.and([eb('company_id', '=', s.companyId), eb('client_id', '=', s.clientId), eb('key', '=', s.key)]);

const readKey = (db: Db, s: KeyScope): Promise<IdempotencyKeyRow | undefined> =>
  db.selectFrom('idempotency_keys').selectAll().where(ofScope(s)).executeTakeFirst();

const leaseUntil = (now: Date) => new Date(now.getTime() + LEASE_MS).toISOString();

function decide(row: IdempotencyKeyRow, fingerprint: string, keys: readonly Buffer[], s: KeyScope, now: Date) {
  if (row.fingerprint !== fingerprint) return { kind: 'mismatch' } as const;
  if (row.status === 'done' && row.response_status !== null && row.response_body !== null) {
    return {
      kind: 'replay',
      response: {
        status: row.response_status,
        headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>,
        body: openBody(keys, s, row.response_body),
      },
    } as const;
  }
  if (Date.parse(row.locked_until) > now.getTime()) return { kind: 'running' } as const;
  return undefined;
}

/**
 * Claims `s` for a request with `fingerprint`: 'claimed' when this request runs (with what an earlier
 * attempt already committed, whose lease ran out); otherwise what to answer instead (the stored
 * response, 409 while another attempt holds the lease, 422 for another request).
 * `keys`: the first seals, any of them opens (an older key while its values have not expired).
 */
export async function claimKey(
  db: Db,
  keys: readonly Buffer[],
  s: KeyScope,
  fingerprint: string,
  now: Date,
): Promise<Claim> {
  const at = now.toISOString();
  const owner = randomUUID();
  // An expired key is forgotten.
  await db.deleteFrom('idempotency_keys').where(ofScope(s)).where('expires_at', '<=', at).execute();
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      company_id: s.companyId,
      client_id: s.clientId,
      key: s.key,
      fingerprint,
      status: 'running',
      locked_until: leaseUntil(now),
      owner,
      outcome: null,
      response_status: null,
      response_headers: null,
      response_body: null,
      created_at: at,
      expires_at: new Date(now.getTime() + KEY_TTL_MS).toISOString(),
    })
    .onConflict((oc) => oc.columns(['company_id', 'client_id', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { kind: 'claimed', owner, outcome: [] };

  const row = await readKey(db, s);
  if (!row) return claimKey(db, keys, s, fingerprint, now);
  const decided = decide(row, fingerprint, keys, s, now);
  if (decided) return decided;
  // Same request, its lease ran out (its process died, or it ended without an answer to keep): take
  // it over, if nobody else did first. Whatever it committed is answered for, not run again.
  const taken = await db
    .updateTable('idempotency_keys')
    .where(ofScope(s))
    .set({ owner, locked_until: leaseUntil(now) })
    .where('status', '=', 'running')
    .where('locked_until', '=', row.locked_until)
    .where((eb) => (row.owner === null ? eb('owner', 'is', null) : eb('owner', '=', row.owner)))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return { kind: 'running' };
  return { kind: 'claimed', owner, outcome: openOutcome(keys, s, row.outcome) };
}

/** Stands in the outcome for a value v8 cannot serialize (a function inside it): the write still commits. */
export const UNRECORDABLE = '\u0000finance:unrecordable-outcome';

/** `value`, or the stand-in when it cannot be kept: a keyed write never fails for how its result is recorded. */
function recordable(value: unknown): unknown {
  try {
    serialize(value);
    return value;
  } catch {
    return UNRECORDABLE;
  }
}

/** Thrown inside a write's transaction when the key's claim was taken over: the write rolls back. */
export class ClaimLostError extends Error {
  constructor() {
    super('the idempotency key was taken over by another attempt');
    this.name = 'ClaimLostError';
  }
}

/**
 * Inside a write's transaction (`db`): appends `value` (what the write's work returned) to the key's
 * outcome, if this attempt still holds the key; throws ClaimLostError otherwise, which rolls the
 * write back. Committed together, or not at all.
 */
export async function recordOutcome(
  db: Db,
  keys: readonly Buffer[],
  s: KeyScope,
  owner: string,
  value: unknown,
): Promise<void> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['outcome', 'owner', 'status'])
    .where(ofScope(s))
    .executeTakeFirst();
  if (!row || row.owner !== owner || row.status !== 'running') throw new ClaimLostError();
  const outcome = [...openOutcome(keys, s, row.outcome), recordable(value)];
  await db
    .updateTable('idempotency_keys')
    .where(ofScope(s))
    .set({ outcome: seal(keys[0]!, outcomeAad(s), serialize(outcome)) })
    .where('owner', '=', owner)
    .execute();
}

/** Keeps a running request's lease (every LEASE_MS / 3); false once the claim is no longer its own. */
export async function renewKey(db: Db, s: KeyScope, owner: string, now: Date): Promise<boolean> {
  const renewed = await db
    .updateTable('idempotency_keys')
    .where(ofScope(s))
    .set({ locked_until: leaseUntil(now) })
    .where('owner', '=', owner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows) === 1;
}

/** Stores the first response of a claimed key. */
export async function completeKey(
  db: Db,
  key: Buffer,
  s: KeyScope,
  owner: string,
  response: StoredResponse,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .where(ofScope(s))
    .set({
      status: 'done',
      response_status: response.status,
      response_headers: JSON.stringify(response.headers),
      response_body: seal(key, aad(s), response.body.toString('base64')),
      outcome: null,
    })
    .where('status', '=', 'running')
    .where('owner', '=', owner)
    .execute();
}

/**
 * Ends an attempt that has no answer to keep (a 5xx): a key none of whose writes committed is freed
 * (a retry runs afresh); one with a committed write keeps its outcome and gives up its lease at once,
 * so a retry takes it over and answers for that write rather than making it again.
 */
export async function abandonKey(db: Db, s: KeyScope, owner: string, now: Date): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where(ofScope(s))
    .where('status', '=', 'running')
    .where('owner', '=', owner)
    .where('outcome', 'is', null)
    .execute();
  await db
    .updateTable('idempotency_keys')
    .where(ofScope(s))
    .set({ locked_until: now.toISOString() })
    .where('status', '=', 'running')
    .where('owner', '=', owner)
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
