// Access tokens of the grants companies give apps (server/areas/apps): issued, looked up and revoked
// here, beside the API clients' tokens, so one lookup serves every bearer token. They start with
// `oat_`; a client-credentials token (random base64url) may too by chance, so a miss falls back.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { digestToken, newSecret } from './secrets.js';

export const GRANT_TOKEN_PREFIX = 'oat_';

/** Stores a new access token of the grant: `token` when the caller minted it (a refresh's pair), else a random one. */
export async function issueGrantAccessToken(
  db: Db,
  clock: Clock,
  input: { grantId: string; appId: string; companyId: string; scopes: string[]; ttlSeconds: number },
  token = newSecret(GRANT_TOKEN_PREFIX),
): Promise<string> {
  const now = clock.now();
  await db
    .insertInto('grant_access_tokens')
    .values({
      token_hash: digestToken(token),
      grant_id: input.grantId,
      app_id: input.appId,
      company_id: input.companyId,
      scopes: input.scopes.join(' '),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + input.ttlSeconds * 1000).toISOString(),
      revoked_at: null,
    })
    .execute();
  return token;
}

/** Every access token of the grant stops at once. */
export async function revokeGrantAccessTokens(db: Db, clock: Clock, grantId: string): Promise<void> {
  await db
    .updateTable('grant_access_tokens')
    .set({ revoked_at: clock.now().toISOString() })
    .where('grant_id', '=', grantId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** RFC 7009: the one token ends, when it is the app's. Answers whether it was found. */
export async function revokeGrantAccessToken(db: Db, clock: Clock, token: string, appId: string): Promise<boolean> {
  const result = await db
    .updateTable('grant_access_tokens')
    .set({ revoked_at: clock.now().toISOString() })
    .where('token_hash', '=', digestToken(token))
    .where('app_id', '=', appId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The grant token's row with its company's zone and clock, or undefined when there is none. */
export async function findGrantAccessToken(db: Db, token: string) {
  return db
    .selectFrom('grant_access_tokens as t')
    .innerJoin('companies as co', 'co.id', 't.company_id')
    .select([
      't.app_id',
      't.company_id',
      't.scopes',
      't.expires_at',
      't.revoked_at',
      'co.time_zone',
      'co.clock_offset_ms',
    ])
    .where('t.token_hash', '=', digestToken(token))
    .executeTakeFirst();
}
