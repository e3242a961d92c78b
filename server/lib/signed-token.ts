// HMAC-SHA256 signed tokens: pagination cursors and URLs that need no access token (receipt
// downloads, attachment uploads).
// token = base64url(JSON payload) + "." + base64url(HMAC-SHA256(secret, context + "." + payload)).
// The context (a purpose such as "receipt", or the canonical JSON of a cursor's scope) keeps a token
// issued for one use from being accepted for another.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

const contextOf = (context: unknown) => (typeof context === 'string' ? context : canonicalJson(context));

const mac = (secret: Buffer, context: string, payload: string) =>
  createHmac('sha256', secret).update(`${context}.${payload}`).digest();

/** Signs `payload` for `context` (a string, or any JSON value compared canonically). */
export function sign(secret: Buffer, context: unknown, payload: unknown): string {
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${encoded}.${mac(secret, contextOf(context), encoded).toString('base64url')}`;
}

/** The current key, then during a rotation the previous one (`CURSOR_SECRET_PREVIOUS`, `URL_SIGNING_SECRET_PREVIOUS`). */
type VerifyKeys = Buffer | readonly (Buffer | undefined)[];

/**
 * The payload of a genuine token of `context`, signed with any of `secrets`; undefined when
 * altered, malformed or of another context.
 */
export function verify(secrets: VerifyKeys, context: unknown, token: string): unknown {
  const [payload, signature, extra] = token.split('.');
  if (!payload || extra !== undefined) return undefined;
  // Compare the encoded text, not decoded bytes: base64url's last character carries spare bits, so
  // several spellings decode to the same bytes, and only the one we issued is genuine.
  const given = Buffer.from(signature ?? '');
  const genuine = (Buffer.isBuffer(secrets) ? [secrets] : secrets).some((secret) => {
    if (!secret) return false;
    const expected = Buffer.from(mac(secret, contextOf(context), payload).toString('base64url'));
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!genuine) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** A token of `purpose` carrying `claims` that expires at `expiresAt`. */
export function signExpiring(
  secret: Buffer,
  purpose: string,
  claims: Record<string, string | number>,
  expiresAt: Date,
): string {
  return sign(secret, purpose, { ...claims, exp: expiresAt.getTime() });
}

/** The claims of a genuine, unexpired token of `purpose`, or why it is refused. */
export function verifyExpiring(
  secret: VerifyKeys,
  purpose: string,
  token: string,
  now: Date,
): { claims: Record<string, unknown> } | { refused: 'invalid' | 'expired' } {
  const claims = verify(secret, purpose, token);
  if (!claims || typeof claims !== 'object' || Array.isArray(claims)) return { refused: 'invalid' };
  const exp = (claims as { exp?: unknown }).exp;
  if (typeof exp !== 'number' || exp <= now.getTime()) return { refused: 'expired' };
  return { claims: claims as Record<string, unknown> };
}
