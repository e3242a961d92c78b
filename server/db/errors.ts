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

/** Counts the metrics read (server/http/ops/metrics.ts). */
export const storeEvents = { transactionRetries: 0 };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Exponential backoff with full jitter: 0..min(cap, base·2^attempt) ms. */
export const backoff = (attempt: number, base = 5, cap = 200) =>
  sleep(Math.random() * Math.min(cap, base * 2 ** attempt));

/** Socket errors of a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
/** 53300 too_many_connections; 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now. */
const POSTGRES_UNAVAILABLE = new Set(['53300', '57P01', '57P02', '57P03']);
/**
 * A FATAL answer ends the session: at connect it is the server refusing it (55000 "database is not
 * currently accepting connections", 57P03 starting up, 53300 too many connections, 28xxx…). Other
 * 55000s (object_not_in_prerequisite_state) are ERRORs of one statement, not outages.
 */
const isFatal = (err: unknown) => (err as { severity?: unknown } | null)?.severity === 'FATAL';
/** pg and pg-pool's own words for a lost connection and a pool acquire that timed out. */
const PG_CONNECTION_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * The store cannot answer at all (as opposed to a conflict): PostgreSQL refusing or dropping
 * connections (refused, reset, 08xxx connection exceptions, shutdown, too many connections, any
 * FATAL answer such as 55000 for a database not accepting connections, a connect or pool acquire
 * that timed out), SQLite unable to write (SQLITE_FULL, SQLITE_READONLY*, SQLITE_IOERR*, SQLITE_CANTOPEN).
 * The caller answers 503 with Retry-After; nothing of the request was committed.
 */
export function isStoreUnavailable(err: unknown): boolean {
  const code = codeOf(err);
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code) || POSTGRES_UNAVAILABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && isFatal(err)) return true;
    if (/^SQLITE_(FULL|READONLY|IOERR|CANTOPEN)/.test(code)) return true;
  }
  if (err instanceof AggregateError) return err.errors.some(isStoreUnavailable);
  return err instanceof Error && PG_CONNECTION_MESSAGE.test(err.message);
}

/** Seconds a client should wait after the store was unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;
