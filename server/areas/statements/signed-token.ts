// Signed, expiring tokens for URLs that need no access token (receipt downloads, attachment uploads).
// token = base64url(JSON payload with `exp`, epoch milliseconds) + "." + base64url(HMAC-SHA256(secret, purpose + "." + payload)).
// The purpose keeps a token of one kind from being accepted as another.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../http/errors.js';

const mac = (secret: Buffer, purpose: string, payload: string) =>
  createHmac('sha256', secret).update(`${purpose}.${payload}`).digest();

export function signToken(secret: Buffer, purpose: string, claims: Record<string, string | number>, expiresAt: Date): string {
  const payload = Buffer.from(JSON.stringify({ ...claims, exp: expiresAt.getTime() })).toString('base64url');
  return `${payload}.${mac(secret, purpose, payload).toString('base64url')}`;
}

/**
 * The claims of a genuine, unexpired token. An altered token, or one past its expiry, is a 403
 * with `messages.invalid` or `messages.expired`.
 */
export function verifyToken(
  secret: Buffer, purpose: string, token: string, now: Date, messages: { invalid: string; expired: string },
): Record<string, unknown> {
  const [payload, signature, extra] = token.split('.');
  // Compare the encoded text, not decoded bytes: base64url's last character carries spare bits, so
  // several spellings decode to the same bytes, and only the one we issued is genuine.
  const given = Buffer.from(signature ?? '');
  const expected = Buffer.from(payload ? mac(secret, purpose, payload).toString('base64url') : '');
  if (!payload || extra !== undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError(403, messages.invalid);
  }
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (typeof claims.exp !== 'number' || claims.exp <= now.getTime()) throw new ApiError(403, messages.expired);
  return claims;
}
