// A refresh's new pair is minted from the refresh token presented (HMAC-SHA256 keyed from
// URL_SIGNING_SECRET), not drawn at random, so a retry of a refresh whose answer was lost (a network
// blip) is answered the same pair again: computed from what the app sends, found by digest among the
// stored tokens. No token is ever stored in a form that opens. The retry is honoured for
// RETRY_GRACE_MS after the first use, while the pair's refresh token is unused and the grant stands;
// otherwise a used refresh token that comes back is reuse (RFC 9700 §4.14.2), and the grant is revoked.
import { createHmac } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Config } from '../../config.js';
import { urlKeys } from '../../kit/signing-keys.js';
import { describeClientToken, digestToken, GRANT_TOKEN_PREFIX } from '../auth/public.js';

/** How long after a refresh token's use the same refresh is answered again. */
const RETRY_GRACE_MS = 60_000;

/** The minting keys: the current URL_SIGNING_SECRET's, then (during a rotation) the previous one's. */
export const mintingKeys = (config: Config): Buffer[] =>
  urlKeys(config.secrets)
    .filter((key) => key !== undefined)
    .map((key) => createHmac('sha256', key).update('refresh-rotation').digest());

const mac = (key: Buffer, label: string, token: string) =>
  createHmac('sha256', key).update(`${label}\n${token}`).digest('base64url');

/** The pair a refresh with `refreshToken` gives: as random to anyone without the key and the token. */
export const pairFor = (key: Buffer, refreshToken: string) => ({
  accessToken: `${GRANT_TOKEN_PREFIX}${mac(key, 'access', refreshToken)}`,
  refreshToken: `rt_${mac(key, 'refresh', refreshToken)}`,
});

/**
 * The pair an earlier refresh with `refreshToken` gave, when this is its retry: within the grace of
 * its use, the pair's refresh token unused and its access token alive. Undefined otherwise: reuse.
 */
export async function pairGivenBefore(
  db: Db,
  clock: Clock,
  keys: Buffer[],
  refreshToken: string,
  grant: { grantId: string; appId: string },
) {
  const now = clock.now().getTime();
  const used = await db
    .selectFrom('oauth_refresh_tokens')
    .select('used_at')
    .where('token_hash', '=', digestToken(refreshToken))
    .executeTakeFirst();
  if (!used?.used_at || now - Date.parse(used.used_at) > RETRY_GRACE_MS) return undefined;
  for (const key of keys) {
    const pair = pairFor(key, refreshToken);
    const next = await db
      .selectFrom('oauth_refresh_tokens')
      .select('used_at')
      .where('token_hash', '=', digestToken(pair.refreshToken))
      .where('grant_id', '=', grant.grantId)
      .executeTakeFirst();
    if (!next) continue;
    if (next.used_at !== null) return undefined;
    const access = await describeClientToken(db, pair.accessToken, grant.appId);
    const expiresIn = access ? Math.floor((Date.parse(access.expiresAt) - now) / 1000) : 0;
    if (!access || access.revoked || expiresIn <= 0) return undefined;
    return { ...pair, scopes: access.scopes, expiresIn };
  }
  return undefined;
}
