// An item's entity tag (RFC 9110 §8.8.3), derived from its representation exactly as its GET answers
// it: the GET's `ETag`, `If-Match` on the item's writes (server/http/mechanisms/preconditions.ts) and a batch
// item's `ifMatch` (the statements' batch PATCH) all compare this value.
import { hash } from 'node:crypto';

/** The strong tag of a JSON text as sent (`itemETag` of what it serializes). */
export const textETag = (text: string | Buffer): string => `"${hash('sha256', text, 'base64url').slice(0, 27)}"`;

/** The strong tag of an item's representation (the JSON its GET answers). */
export const itemETag = (representation: unknown): string => textETag(JSON.stringify(representation));
