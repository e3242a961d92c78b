// Companies, API clients and access tokens.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { isTimeZone } from '../../lib/time-zone.js';
import { digestToken, hashSecret, newSecret, verifySecret } from './secrets.js';
import type { Kept } from '../../db/change-signals.js';
import { writeTransaction } from '../../db/transaction.js';
import { prepared } from '../../db/prepared.js';
import { findGrantAccessToken, GRANT_TOKEN_PREFIX } from './grant-tokens.js';
import { recordAudit } from '../audit/public.js';

/** Who made a change to a client, for its audit entry: an API client id (with its address and request), `cli` or `system`. */
interface ChangedBy {
  actor: string;
  ip?: string | null;
  requestId?: string | null;
}

export const ALL_SCOPES = [
  'statements:read',
  'statements:write',
  'directory:read',
  'directory:write',
  'users:read',
  'users:write',
  'cards:read',
  'cards:write',
  'vcn:read',
  'vcn:write',
  'vcn:reveal',
  'events:read',
  'webhooks:read',
  'webhooks:write',
  'apps:manage',
  'sandbox:write',
  'audit:read',
  'clients:manage',
] as const;

/**
 * Scopes that administer the company's own credentials, apps, webhook endpoints, audit log or
 * sandbox: only its API clients (client credentials) hold them, never an app acting for it. An app
 * holding them minted API clients that outlived its grant, approved further grants for itself and
 * revoked other apps'; a webhook endpoint it registered would go on receiving the company's events
 * after the company revoked it.
 */
export const FIRST_PARTY_SCOPES: readonly string[] = [
  'clients:manage',
  'apps:manage',
  'webhooks:write',
  'audit:read',
  'sandbox:write',
];

/** The scopes of `scopes` that are first-party (FIRST_PARTY_SCOPES). */
export const firstPartyOf = (scopes: readonly string[]) => scopes.filter((s) => FIRST_PARTY_SCOPES.includes(s));

/** The scopes a new company's first client gets: all of them, less `sandbox:write` where the sandbox helpers are off. */
export const defaultScopes = (sandboxHelpers: boolean): string[] =>
  ALL_SCOPES.filter((scope) => sandboxHelpers || scope !== 'sandbox:write');

interface NewClient {
  companyId: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

export async function createCompany(db: Db, clock: Clock, input: { name: string; timeZone?: string }): Promise<string> {
  // The CLI checks these too; a company with no name or an unknown zone breaks every date it shows.
  if (input.name.trim().length === 0) throw new Error('the company name must not be empty');
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone))
    throw new Error(`not an IANA time zone: ${input.timeZone}`);
  const id = randomUUID();
  await db
    .insertInto('companies')
    .values({
      id,
      name: input.name,
      time_zone: input.timeZone ?? 'America/Sao_Paulo',
      created_at: clock.now().toISOString(),
    })
    .execute();
  return id;
}

export async function createClient(
  db: Db,
  clock: Clock,
  input: {
    companyId: string;
    scopes: readonly string[];
    name?: string | null;
    /** Canonical CIDR blocks (ip-allowlist.ts); null or absent: any address. */
    allowedIps?: readonly string[] | null;
    expiresAt?: string | null;
  },
  /** Who creates it: recorded as `created_by` and in the audit log (`api_client.created`); absent, neither. */
  by?: ChangedBy,
  /** How its secret is hashed: the service's cost, unless the test suite asks for a cheaper one. */
  hash: (secret: string) => Promise<string> = hashSecret,
): Promise<NewClient> {
  const unknown = input.scopes.filter((s) => !(ALL_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`unknown scopes: ${unknown.join(', ')}`);
  const clientId = `cli_${randomBytes(12).toString('hex')}`;
  const clientSecret = newSecret('sk_');
  const secretHash = await hash(clientSecret);
  const scopes = [...new Set(input.scopes)];
  // What is answered comes out of the transaction: a keyed retry whose write an earlier attempt made
  // answers with that attempt's credentials (its recorded outcome), not with ones this attempt drew.
  return writeTransaction(db, async (trx) => {
    const company = await trx.selectFrom('companies').select('id').where('id', '=', input.companyId).executeTakeFirst();
    if (!company) throw new Error(`no company ${input.companyId}`);
    await trx
      .insertInto('api_clients')
      .values({
        id: clientId,
        company_id: input.companyId,
        secret_hash: secretHash,
        scopes: scopes.join(' '),
        created_at: clock.now().toISOString(),
        revoked_at: null,
        previous_secret_hash: null,
        previous_secret_expires_at: null,
        last_used_at: null,
        name: input.name ?? null,
        created_by: by?.actor ?? null,
        allowed_ips: input.allowedIps ? JSON.stringify(input.allowedIps) : null,
        expires_at: input.expiresAt ?? null,
        last_used_ip: null,
      })
      .execute();
    if (by)
      await recordAudit(trx, clock, {
        companyId: input.companyId,
        action: 'api_client.created',
        ...by,
        target: clientId,
        details: {
          scopes,
          ...(input.allowedIps ? { allowedIps: input.allowedIps } : {}),
          ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
        },
      });
    return { companyId: input.companyId, clientId, clientSecret, scopes };
  });
}

/**
 * Revokes a client: its secret and every token issued to it stop working at once. The tokens are
 * kept until they expire, so a call with one is told the token was revoked, not that it is unknown.
 */
export async function revokeClient(db: Db, clock: Clock, clientId: string, by?: ChangedBy): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    const revoked = await trx
      .updateTable('api_clients')
      .set({ revoked_at: clock.now().toISOString() })
      .where('id', '=', clientId)
      .where('revoked_at', 'is', null)
      .returning('company_id')
      .executeTakeFirst();
    if (revoked && by)
      await recordAudit(trx, clock, {
        companyId: revoked.company_id,
        action: 'api_client.revoked',
        ...by,
        target: clientId,
      });
    return revoked !== undefined;
  });
}

/**
 * Gives a client a new secret. Without a grace the old secret and the tokens issued to the client
 * stop working at once. With `graceSeconds`, the old secret still gets tokens until the grace ends
 * and the tokens already issued live on, none beyond the grace's end; after it only the new secret works.
 */
export async function rotateClientSecret(
  db: Db,
  clientId: string,
  { clock, graceSeconds = 0, by }: { clock?: Clock; graceSeconds?: number; by?: ChangedBy } = {},
): Promise<{ clientSecret: string; graceEndsAt: string | null }> {
  const clientSecret = newSecret('sk_');
  const secretHash = await hashSecret(clientSecret);
  const graceEndsAt =
    graceSeconds > 0 && clock ? new Date(clock.now().getTime() + graceSeconds * 1000).toISOString() : null;
  // As createClient: the secret answered is the one the committed write stored.
  return writeTransaction(db, async (trx) => {
    const current = await trx
      .selectFrom('api_clients')
      .select(['secret_hash', 'company_id'])
      .where('id', '=', clientId)
      .executeTakeFirst();
    await trx
      .updateTable('api_clients')
      .set({
        secret_hash: secretHash,
        previous_secret_hash: graceEndsAt ? (current?.secret_hash ?? null) : null,
        previous_secret_expires_at: graceEndsAt,
      })
      .where('id', '=', clientId)
      .execute();
    if (!graceEndsAt) await trx.deleteFrom('access_tokens').where('client_id', '=', clientId).execute();
    else
      await trx
        .updateTable('access_tokens')
        .set({ expires_at: graceEndsAt })
        .where('client_id', '=', clientId)
        .where('expires_at', '>', graceEndsAt)
        .execute();
    if (current && by && clock)
      await recordAudit(trx, clock, {
        companyId: current.company_id,
        action: 'api_client.secret_rotated',
        ...by,
        target: clientId,
        details: graceEndsAt ? { graceEndsAt } : {},
      });
    return { clientSecret, graceEndsAt };
  });
}

/** The stored hash a secret matched, in the column that held it: issueVerifiedToken checks it still does. */
interface VerifiedSecret {
  column: 'secret_hash' | 'previous_secret_hash';
  hash: string;
}

/**
 * The client when id and secret match an active client, else undefined. `graceEndsAt` is set when
 * the secret is the previous one of a rotation still in its grace: tokens then end with the grace.
 */
export async function authenticateClient(db: Db, clock: Clock, clientId: string, secret: string) {
  const client = await db.selectFrom('api_clients').selectAll().where('id', '=', clientId).executeTakeFirst();
  if (!client || client.revoked_at !== null) {
    // Spend comparable time on unknown clients so timing does not reveal which ids exist.
    await hashSecret(secret);
    return undefined;
  }
  if (await verifySecret(secret, client.secret_hash)) {
    const verified: VerifiedSecret = { column: 'secret_hash', hash: client.secret_hash };
    return { ...client, graceEndsAt: undefined, verified };
  }
  const graceEndsAt = client.previous_secret_expires_at;
  if (
    client.previous_secret_hash &&
    graceEndsAt &&
    Date.parse(graceEndsAt) > clock.now().getTime() &&
    (await verifySecret(secret, client.previous_secret_hash))
  ) {
    const verified: VerifiedSecret = { column: 'previous_secret_hash', hash: client.previous_secret_hash };
    return { ...client, graceEndsAt, verified };
  }
  return undefined;
}

interface NewToken {
  clientId: string;
  companyId: string;
  scopes: string[];
  ttlSeconds: number;
  address?: string | null;
}

// When the client was last used: written once per token, not on every request.
const markUsed = (db: Db, clock: Clock, input: NewToken) =>
  db
    .updateTable('api_clients')
    .set({ last_used_at: clock.now().toISOString(), last_used_ip: input.address ?? null })
    .where('id', '=', input.clientId);

async function insertToken(db: Db, clock: Clock, input: NewToken): Promise<string> {
  const token = newSecret('');
  const now = clock.now();
  await db
    .insertInto('access_tokens')
    .values({
      token_hash: digestToken(token),
      client_id: input.clientId,
      company_id: input.companyId,
      scopes: input.scopes.join(' '),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + input.ttlSeconds * 1000).toISOString(),
    })
    .execute();
  return token;
}

/**
 * The token endpoint's new access token, or undefined when the client was revoked, or the secret it
 * was authenticated with was rotated away, since it was read. The client's row is written first, in
 * the token's transaction, only while it is in that state; a revocation or a rotation writes that
 * row too, so the two are serialized on it: whichever commits first, no token outlives a revocation,
 * nor a rotation without grace (which deletes the tokens it finds).
 */
export async function issueVerifiedToken(
  db: Db,
  clock: Clock,
  input: NewToken & { verified: VerifiedSecret },
): Promise<string | undefined> {
  return writeTransaction(db, async (trx) => {
    const used = await markUsed(trx, clock, input)
      .where('revoked_at', 'is', null)
      .where(input.verified.column, '=', input.verified.hash)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1 ? insertToken(trx, clock, input) : undefined;
  });
}

/** A new access token of a client known to be active (set-up, benchmarks). */
export async function issueToken(db: Db, clock: Clock, input: NewToken): Promise<string> {
  return writeTransaction(db, async (trx) => {
    await markUsed(trx, clock, input).execute();
    return insertToken(trx, clock, input);
  });
}

/** The token lookup, prepared once (server/db/prepared.ts): it runs on every authenticated request. */
const tokenLookup = prepared((db, p: { digest: string }) =>
  db
    .selectFrom('access_tokens as t')
    .innerJoin('api_clients as c', 'c.id', 't.client_id')
    .innerJoin('companies as co', 'co.id', 't.company_id')
    .select([
      't.client_id',
      't.company_id',
      't.scopes',
      't.expires_at',
      'c.revoked_at',
      'co.time_zone',
      'co.clock_offset_ms',
    ])
    .where('t.token_hash', '=', p.digest),
);

type TokenRow = NonNullable<Awaited<ReturnType<typeof tokenLookup>>['rows'][number]>;

/** Why a token does not authenticate; `undefined` when it does. */
export type TokenRefusal = 'unknown' | 'expired' | 'revoked';

/**
 * The token's grant, or why it is refused (never issued, expired, or its client or app grant revoked).
 * An app's token (`oat_…`) is looked up among the grants' tokens first.
 */
export async function lookupToken(db: Db, clock: Clock, token: string, kept?: Kept<unknown>) {
  const grantRow = token.startsWith(GRANT_TOKEN_PREFIX) ? await findGrantAccessToken(db, token) : undefined;
  const digest = digestToken(token);
  const read = async () => (await tokenLookup(db, { digest })).rows[0];
  // A client's token is kept between requests on PostgreSQL (server/db/change-signals.ts): any change
  // to a token, its client or its company is signalled, and a write for the company forgets it.
  // Unknown tokens never; apps' tokens are read each time.
  const row = grantRow
    ? { ...grantRow, client_id: grantRow.app_id }
    : kept
      ? ((await kept.get(digest, read, (found) =>
          found ? { topic: 'tokens', owner: (found as TokenRow).company_id } : undefined,
        )) as TokenRow | undefined)
      : await read();
  if (!row) return { refused: 'unknown' as TokenRefusal };
  if (row.revoked_at !== null) return { refused: 'revoked' as TokenRefusal };
  if (new Date(row.expires_at).getTime() <= clock.now().getTime())
    return { refused: 'expired' as TokenRefusal, expiredAt: row.expires_at };
  return {
    grant: {
      clientId: row.client_id,
      companyId: row.company_id,
      scopes: new Set(row.scopes.split(' ').filter(Boolean)),
      timeZone: row.time_zone,
      clockOffsetMs: Number(row.clock_offset_ms),
    },
  };
}

/** Every company with its number of active (not revoked) API clients, oldest first. */
export async function listCompanies(db: Db) {
  const rows = await db
    .selectFrom('companies as co')
    .leftJoin('api_clients as c', (join) => join.onRef('c.company_id', '=', 'co.id').on('c.revoked_at', 'is', null))
    .select((eb) => ['co.id', 'co.name', 'co.time_zone', 'co.created_at', eb.fn.count<number>('c.id').as('active')])
    .groupBy(['co.id', 'co.name', 'co.time_zone', 'co.created_at'])
    .orderBy('co.created_at')
    .execute();
  return rows.map((r) => ({
    companyId: r.id,
    name: r.name,
    timeZone: r.time_zone,
    createdAt: r.created_at,
    activeClients: Number(r.active),
  }));
}

/** The API clients (of one company when given), oldest first; never their secrets. */
export async function listClients(db: Db, companyId?: string) {
  let query = db
    .selectFrom('api_clients')
    .select([
      'id',
      'company_id',
      'name',
      'scopes',
      'allowed_ips',
      'expires_at',
      'created_at',
      'created_by',
      'revoked_at',
      'last_used_at',
      'last_used_ip',
      'previous_secret_expires_at',
    ])
    .orderBy('created_at');
  if (companyId) query = query.where('company_id', '=', companyId);
  const rows = await query.execute();
  return rows.map((r) => ({
    clientId: r.id,
    companyId: r.company_id,
    name: r.name,
    scopes: r.scopes.split(' ').filter(Boolean),
    /** CIDR blocks it may get tokens from; null: any address. */
    allowedIps: r.allowed_ips ? (JSON.parse(r.allowed_ips) as string[]) : null,
    expiresAt: r.expires_at,
    createdAt: r.created_at,
    /** The API client id that created it, `cli`, or null. */
    createdBy: r.created_by,
    revokedAt: r.revoked_at,
    /** When the client was last given a token; null when never. */
    lastUsedAt: r.last_used_at,
    lastUsedIp: r.last_used_ip,
    /** Until when its previous secret (of a rotation with a grace) is still accepted. */
    previousSecretExpiresAt: r.previous_secret_expires_at,
  }));
}
