// `metadataColumns`: metadata keys exported as CSV columns after the usual ones, headed
// `metadata.<key>` in both dialects. A key may hold dots, so a cell is not found by the column's
// dotted path: each row carries its cells as its own properties, named as the columns are.
import type { Column } from './columns.js';

const pathOf = (key: string) => `metadata.${key}`;

/** The columns of `keys`, in their order; none without keys. */
export const metadataColumns = (keys: readonly string[] | undefined): Column[] =>
  (keys ?? []).map((key) => [pathOf(key), 'text', pathOf(key)] as const);

/** `chunks` with each item's cells of `keys` (its metadata values, undefined when absent); as they are without keys. */
export function withMetadataCells<T extends { metadata: Record<string, string> }>(
  chunks: AsyncIterable<T[]> | Iterable<T[]>,
  keys: readonly string[] | undefined,
): AsyncIterable<T[]> | Iterable<T[]> {
  if (!keys || keys.length === 0) return chunks;
  const cells = (item: T) =>
    Object.fromEntries(
      keys.map((key) => [pathOf(key), Object.hasOwn(item.metadata, key) ? item.metadata[key] : undefined]),
    );
  return (async function* () {
    for await (const items of chunks) yield items.map((item) => ({ ...item, ...cells(item) }));
  })();
}
