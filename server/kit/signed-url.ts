// Signed, expiring tokens in URLs that need no access token (receipt downloads, attachment uploads).
// A token altered, issued for another purpose, or past its expiry is a 403.
import { signExpiring, verifyExpiring, type VerifyKeys } from '../lib/signed-token.js';
import { ApiError } from './errors.js';

export const signToken = signExpiring;

/** The claims of a genuine, unexpired token; otherwise a 403 with `messages.invalid` or `messages.expired`. */
export function verifyToken(
  secret: VerifyKeys,
  purpose: string,
  token: string,
  now: Date,
  messages: { invalid: string; expired: string },
  /** The path parameter the token came in, named in the error. */
  param: string,
): Record<string, unknown> {
  const result = verifyExpiring(secret, purpose, token, now);
  if ('refused' in result) throw new ApiError(403, messages[result.refused], [], {}, { reason: 'forbidden', param });
  return result.claims;
}
