// The database being unavailable is logged when it starts and when it ends, not once per request
// (the request log already has each 503): one `database unavailable` line when the first request
// finds it down, one `database recovered` line, with how long and how many requests failed, when an
// API request next succeeds.
import type { Logger } from 'pino';

export interface OutageLog {
  /** A request found the database unavailable. */
  failed(err: unknown): void;
  /** A request that used the database succeeded. */
  succeeded(): void;
}

/** The error's kind without its stack: the code and first line are enough to tell the class. */
const summary = (err: unknown) => {
  const e = err as { code?: unknown; severity?: unknown; message?: unknown } | null;
  return {
    code: typeof e?.code === 'string' ? e.code : undefined,
    severity: typeof e?.severity === 'string' ? e.severity : undefined,
    message: typeof e?.message === 'string' ? e.message.split('\n')[0]!.slice(0, 200) : String(err),
  };
};

export function outageLog(logger: Logger, now: () => number = Date.now): OutageLog {
  let since: number | undefined;
  let failures = 0;
  return {
    failed(err) {
      failures += 1;
      if (since !== undefined) return;
      since = now();
      logger.error({ err: summary(err) }, 'database unavailable: API requests answer 503 until it recovers');
    },
    succeeded() {
      if (since === undefined) return;
      logger.warn({ downMs: now() - since, failedRequests: failures }, 'database recovered');
      since = undefined;
      failures = 0;
    },
  };
}
