// The grants companies gave apps, and what each grant issues: a one-time authorization code, then
// access tokens and rotating refresh tokens. Everything is kept as SHA-256 digests. Revoking a grant
// (the company, a reused code or refresh token, RFC 7009) stops all its tokens at once, and an
// exchange racing it gets nothing that outlives it (exchangeForTokens).
import { recordAudit } from '../audit/public.js';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { writeTransaction } from '../../db/transaction.js';
import { digestToken, issueGrantAccessToken, newSecret, revokeGrantAccessTokens } from '../auth/public.js';

const CODE_TTL_MS = 60 * 1000;
const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;

interface NewGrant {
  companyId: string;
  appId: string;
  scopes: string[];
  resource: string | undefined;
  redirectUri: string;
  /** The authorization request named no redirect_uri: the app's one registered URI was used. */
  redirectUriImplied: boolean;
  codeChallenge: string;
}

/** Records the company's approval and the authorization code that carries it; answers the code. */
export async function createGrantWithCode(db: Db, clock: Clock, input: NewGrant): Promise<string> {
  const code = newSecret('ac_');
  const now = clock.now();
  const id = `grt_${randomBytes(12).toString('hex')}`;
  await db
    .insertInto('oauth_grants')
    .values({
      id,
      company_id: input.companyId,
      app_id: input.appId,
      scopes: input.scopes.join(' '),
      resource: input.resource ?? null,
      created_at: now.toISOString(),
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  await db
    .insertInto('oauth_codes')
    .values({
      code_hash: digestToken(code),
      grant_id: id,
      app_id: input.appId,
      redirect_uri: input.redirectUri,
      redirect_uri_implied: input.redirectUriImplied ? 1 : 0,
      code_challenge: input.codeChallenge,
      expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  return code;
}

export async function findCode(db: Db, code: string) {
  return db
    .selectFrom('oauth_codes as c')
    .innerJoin('oauth_grants as g', 'g.id', 'c.grant_id')
    .select([
      'c.code_hash',
      'c.grant_id',
      'c.app_id',
      'c.redirect_uri',
      'c.redirect_uri_implied',
      'c.code_challenge',
      'c.expires_at',
      'c.used_at',
      'g.company_id',
      'g.scopes',
      'g.resource',
      'g.revoked_at',
    ])
    .where('c.code_hash', '=', digestToken(code))
    .executeTakeFirst();
}

/** Marks the code used; false when it already was (a replay, or a concurrent exchange). */
async function claimCode(db: Db, clock: Clock, codeHash: string): Promise<boolean> {
  const result = await db
    .updateTable('oauth_codes')
    .set({ used_at: clock.now().toISOString() })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findRefreshToken(db: Db, token: string) {
  return db
    .selectFrom('oauth_refresh_tokens as r')
    .innerJoin('oauth_grants as g', 'g.id', 'r.grant_id')
    .select([
      'r.token_hash',
      'r.grant_id',
      'r.created_at',
      'r.expires_at',
      'r.used_at',
      'g.app_id',
      'g.company_id',
      'g.scopes',
      'g.resource',
      'g.revoked_at',
    ])
    .where('r.token_hash', '=', digestToken(token))
    .executeTakeFirst();
}

/** Marks the refresh token used; false when it already was. */
async function claimRefreshToken(db: Db, clock: Clock, tokenHash: string): Promise<boolean> {
  const result = await db
    .updateTable('oauth_refresh_tokens')
    .set({ used_at: clock.now().toISOString() })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** What an exchange presents, by digest: the authorization code or the refresh token. */
type Presented = { codeHash: string } | { refreshTokenHash: string };

/**
 * Exchanges a code or a refresh token for the grant's next access and refresh tokens, in one
 * transaction that writes the grant's row first, only while it is not revoked. A revocation writes
 * that row too (revokeGrant), so the two are serialized on it, whatever the store: a revocation
 * committed first leaves nothing to issue (`revoked`); one committed after revokes what was issued.
 * `used`: the code or refresh token was already exchanged. `minted`: the pair to store and answer
 * (a refresh's, refresh-retry.ts), else a random one.
 */
export async function exchangeForTokens(
  db: Db,
  clock: Clock,
  presented: Presented,
  input: { grantId: string; appId: string; companyId: string; scopes: string[]; ttlSeconds: number },
  minted?: { accessToken: string; refreshToken: string },
) {
  return writeTransaction(db, async (trx) => {
    const now = clock.now();
    const live = await trx
      .updateTable('oauth_grants')
      .set({ last_used_at: now.toISOString() })
      .where('id', '=', input.grantId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(live.numUpdatedRows) !== 1) return 'revoked' as const;
    const claimed =
      'codeHash' in presented
        ? await claimCode(trx, clock, presented.codeHash)
        : await claimRefreshToken(trx, clock, presented.refreshTokenHash);
    if (!claimed) return 'used' as const;
    const accessToken = await issueGrantAccessToken(trx, clock, input, minted?.accessToken);
    const refreshToken = minted?.refreshToken ?? newSecret('rt_');
    await trx
      .insertInto('oauth_refresh_tokens')
      .values({
        token_hash: digestToken(refreshToken),
        grant_id: input.grantId,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + REFRESH_TTL_MS).toISOString(),
        used_at: null,
      })
      .execute();
    return { accessToken, refreshToken };
  });
}

/** Revokes the grant: its access and refresh tokens stop at once (revoked, not unknown, until they expire). */
export async function revokeGrant(
  db: Db,
  clock: Clock,
  grantId: string,
  by: { actor: string; ip?: string | null; requestId?: string | null; reason: string },
  companyId?: string,
): Promise<boolean> {
  return writeTransaction(db, async (trx) => {
    let query = trx
      .updateTable('oauth_grants')
      .set({ revoked_at: clock.now().toISOString() })
      .where('id', '=', grantId)
      .where('revoked_at', 'is', null);
    if (companyId !== undefined) query = query.where('company_id', '=', companyId);
    const revoked = await query.returning(['company_id', 'app_id']).executeTakeFirst();
    if (!revoked) return false;
    await revokeGrantAccessTokens(trx, clock, grantId);
    await recordAudit(trx, clock, {
      companyId: revoked.company_id,
      action: 'app.revoked',
      actor: by.actor,
      target: grantId,
      ip: by.ip,
      requestId: by.requestId,
      details: { appId: revoked.app_id, reason: by.reason },
    });
    return true;
  });
}

/** The company's grants not revoked, newest first. */
export async function listGrants(db: Db, companyId: string) {
  const rows = await db
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_apps as a', 'a.id', 'g.app_id')
    .select(['g.id', 'g.app_id', 'a.name', 'g.scopes', 'g.created_at', 'g.last_used_at'])
    .where('g.company_id', '=', companyId)
    .where('g.revoked_at', 'is', null)
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id', 'desc')
    .limit(1000)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    clientId: r.app_id,
    appName: r.name,
    scopes: r.scopes.split(' ').filter(Boolean),
    createdAt: new Date(r.created_at).toISOString(),
    lastUsedAt: r.last_used_at === null ? null : new Date(r.last_used_at).toISOString(),
  }));
}
