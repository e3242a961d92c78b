// Long lists of ids are read in chunks: one `in (…)` list per chunk keeps every statement well under
// the number of values a database binds (SQLite: 32,766).

/** `items` in consecutive slices of at most `size`. */
export const chunks = <T>(items: readonly T[], size = 500): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
