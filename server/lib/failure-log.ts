// A dependency that fails over and over (the database under the webhook worker during an outage) is
// logged when it starts failing (with the error's stack), at most once every `everyMs` while it keeps
// failing (with the number of failures since), and once when it recovers (with how long it was down):
// never once per poll.
import type { Logger } from 'pino';

interface FailureLog {
  failed(err: unknown): void;
  succeeded(): void;
}

export function failureLog(
  logger: Logger,
  what: string,
  { everyMs = 10_000, now = () => Date.now() }: { everyMs?: number; now?: () => number } = {},
): FailureLog {
  let since: number | undefined;
  let lastLogged = 0;
  let failures = 0;
  return {
    failed(err) {
      const at = now();
      failures += 1;
      if (since === undefined) {
        since = at;
        lastLogged = at;
        failures = 0;
        logger.error({ err, dependency: what }, `${what} failed`);
        return;
      }
      if (at - lastLogged < everyMs) return;
      lastLogged = at;
      logger.error(
        { err, dependency: what, failingForMs: at - since, failuresSinceLastLine: failures },
        `${what} still failing`,
      );
      failures = 0;
    },
    succeeded() {
      if (since === undefined) return;
      logger.info({ dependency: what, downForMs: now() - since }, `${what} recovered`);
      since = undefined;
      failures = 0;
    },
  };
}
