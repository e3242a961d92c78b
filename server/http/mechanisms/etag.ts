// Entity tags (RFC 9110 §8.8.3: an item's own in server/kit/item-etag.ts) and the preconditions that compare them (§13.1.1 If-Match,
// §13.1.2 If-None-Match). An item's tag is derived from its representation, exactly as its GET
// answers it, so it changes when and only when what a client sees of the item changes: the GET's
// `ETag`, `If-None-Match` on that GET and `If-Match` on the item's PATCH, PUT and DELETE all compare
// the same value. A list's tag is derived from the company's data version instead (the list's query
// need not run to know it is unchanged).

/** The tags of an `If-Match` / `If-None-Match` header: `*`, or the listed entity tags (weak ones keep `W/`). */
function parseTagList(header: string): '*' | string[] {
  if (header.trim() === '*') return '*';
  return [...header.matchAll(/(?:W\/)?"[^"]*"/g)].map((m) => m[0]);
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * Does `header` (an If-None-Match or If-Match value) match `current`? If-None-Match compares weakly
 * (§13.1.2); If-Match strongly (§13.1.1): a weak tag never matches there.
 */
export function tagMatches(header: string, current: string, comparison: 'weak' | 'strong'): boolean {
  const tags = parseTagList(header);
  if (tags === '*') return true;
  if (comparison === 'weak') return tags.some((t) => opaque(t) === opaque(current));
  return !current.startsWith('W/') && tags.some((t) => t === current);
}
