// Classifying driver errors, so that areas never look at driver-specific codes.

/**
 * True for a unique-index violation: better-sqlite3's `SQLITE_CONSTRAINT_UNIQUE`,
 * or PostgreSQL's SQLSTATE 23505 (`unique_violation`) as node-postgres reports it.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
