// Opaque, signed, filter-bound pagination cursors (DESIGN §5).
// A cursor is base64url(JSON {k: last row's sort key}) + "." + base64url(HMAC-SHA256(secret, payload + scope)),
// where `scope` is a canonical JSON of the query's filters and sorting. A tampered cursor, or one sent
// with other filters, fails verification and is answered with 400.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest, type FieldProblem } from './errors.js';

type SortKey = Array<string | number | null>;

/** Canonical JSON: object keys sorted, undefined members dropped, so equal filters give equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const sign = (secret: Buffer, payload: string, scope: unknown) =>
  createHmac('sha256', secret).update(payload).update('\n').update(canonical(scope)).digest();

/** Encodes the sort key of the last row of a page; `scope` is everything that shapes the query except the cursor. */
export function encodeCursor(secret: Buffer, scope: unknown, key: SortKey): string {
  const payload = Buffer.from(JSON.stringify({ k: key })).toString('base64url');
  return `${payload}.${sign(secret, payload, scope).toString('base64url')}`;
}

/**
 * Verifies and decodes a cursor. `field` names the parameter in the error (`nextPageStartKey`);
 * pass `fieldDetails: true` for operations whose error details are `{field, message}`.
 */
export function decodeCursor(secret: Buffer, scope: unknown, token: string, fieldDetails = false): SortKey {
  const invalid = () => {
    const message = 'nextPageStartKey is invalid, or was issued for other filters or sorting';
    const details: Array<string | FieldProblem> = fieldDetails ? [{ field: 'nextPageStartKey', message }] : [message];
    return badRequest(message, details);
  };
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) throw invalid();
  // Compare the encoded text: base64url's last character has spare bits, so decoded bytes would
  // accept several spellings of one signature.
  const expected = Buffer.from(sign(secret, payload, scope).toString('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k?: unknown };
    if (!Array.isArray(parsed.k)) throw invalid();
    return parsed.k as SortKey;
  } catch {
    throw invalid();
  }
}

/**
 * Cuts the `limit + 1` rows a keyset query fetched into the page and, when more rows follow, the
 * cursor of the next page (`keyOf` gives the sort key of the page's last row).
 */
export function pageOf<T>(
  secret: Buffer, scope: unknown, rows: T[], limit: number, keyOf: (last: T) => SortKey,
): { items: T[]; nextPageStartKey?: string } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return rows.length > limit && last !== undefined ? { items, nextPageStartKey: encodeCursor(secret, scope, keyOf(last)) } : { items };
}
