// Signed, expiring tokens in URLs that need no access token (receipt downloads, attachment uploads).
// A token altered, issued for another purpose, or past its expiry is a 403.
import type { Config } from '../config.js';
import { signExpiring, verifyExpiring } from '../lib/signed-token.js';
import { ApiError } from './errors.js';
import { urlKeys } from './signing-keys.js';

type UrlSecrets = Pick<Config['secrets'], 'urls' | 'urlsPrevious'>;

/** A token of `purpose` carrying `claims` until `expiresAt`, signed with `URL_SIGNING_SECRET`. */
export const signToken = (
  secrets: UrlSecrets,
  purpose: string,
  claims: Record<string, string | number>,
  expiresAt: Date,
): string => signExpiring(secrets.urls, purpose, claims, expiresAt);

/**
 * The claims of a genuine, unexpired token (signed with the current or, during a rotation, the
 * previous secret); otherwise a 403 with `messages.invalid` or `messages.expired`.
 */
export function verifyToken(
  secrets: UrlSecrets,
  purpose: string,
  token: string,
  now: Date,
  messages: { invalid: string; expired: string },
  /** The path parameter the token came in, named in the error. */
  param: string,
): Record<string, unknown> {
  const result = verifyExpiring(urlKeys(secrets), purpose, token, now);
  if ('refused' in result) throw new ApiError(403, messages[result.refused], [], {}, { reason: 'forbidden', param });
  return result.claims;
}
