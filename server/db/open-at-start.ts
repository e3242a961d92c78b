// Opening the store when a server starts: a PostgreSQL server that is not up yet (the database
// container still starting, a failover) is retried with backoff for DATABASE_START_TIMEOUT_MS, each
// attempt logged at warn, before the start fails; any other failure fails at once. Either way the
// message names DATABASE_URL and the location without its password.
import { warnLine } from '../lib/warn.js';
import { isStoreUnavailable } from './errors.js';
import { describeLocation } from './location.js';
import { openStore, type Store } from './store.js';

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;

export async function openStoreAtStart(location: string, timeoutMs: number): Promise<Store> {
  const deadline = Date.now() + timeoutMs;
  const where = describeLocation(location);
  for (let attempt = 1, delay = FIRST_DELAY_MS; ; attempt += 1, delay = Math.min(delay * 2, MAX_DELAY_MS)) {
    try {
      return await openStore(location);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      const left = deadline - Date.now();
      if (!isStoreUnavailable(err) || left <= 0)
        throw new Error(
          `DATABASE_URL: cannot open ${where}: ${reason}${attempt > 1 ? ` (gave up after ${attempt} attempts in ${timeoutMs} ms)` : ''}`,
        );
      const wait = Math.min(delay, left);
      warnLine(`DATABASE_URL: ${where} is not reachable (${reason}); attempt ${attempt}, retrying in ${wait} ms`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
