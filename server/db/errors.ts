// Driver errors, classified once for both stores.
//  - a unique violation is a rule the database settled (the caller answers 409);
//  - a busy store (SQLite lock still held after our retries, PostgreSQL serialization failure or
//    deadlock after our retries) is transient: the caller answers 503 with Retry-After.

const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code;

export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** SQLITE_BUSY / SQLITE_BUSY_SNAPSHOT / SQLITE_LOCKED…: another process holds the lock. */
export const isSqliteBusy = (err: unknown) => {
  const code = codeOf(err);
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
};

/** 40001 serialization_failure, 40P01 deadlock_detected: the transaction may succeed when run again. */
export const isPostgresRetryable = (err: unknown) => {
  const code = codeOf(err);
  return code === '40001' || code === '40P01';
};

/** Seconds a client should wait before retrying after `StoreBusyError`. */
export const RETRY_AFTER_SECONDS = 1;

/** The store stayed busy (locks, serialization conflicts) through every retry. Rendered as 503. */
export class StoreBusyError extends Error {
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
  constructor(override readonly cause: unknown) {
    super('The service is busy, retry in 1 second');
    this.name = 'StoreBusyError';
  }
}

/** True for anything that should become 503 + Retry-After rather than 500. */
export const isStoreBusy = (err: unknown) =>
  err instanceof StoreBusyError || isSqliteBusy(err) || isPostgresRetryable(err);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Exponential backoff with full jitter: 0..min(cap, base·2^attempt) ms. */
export const backoff = (attempt: number, base = 5, cap = 200) =>
  sleep(Math.random() * Math.min(cap, base * 2 ** attempt));
