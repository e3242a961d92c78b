// Retry schedule of failed deliveries: exponential backoff with jitter, for 3 days.

/** Deliveries are retried until this long after their event. */
const RETRY_FOR_MS = 3 * 24 * 60 * 60 * 1000;
const FIRST_DELAY_MS = 10_000;
const MAX_DELAY_MS = 6 * 60 * 60 * 1000;

/**
 * When to try again after the `attempts`-th failed attempt: 10 s, 20 s, 40 s … doubling up to
 * 6 hours, each ±20 % at random; null once the delivery is older than 3 days.
 */
export function nextAttemptAt(
  createdAt: string,
  attempts: number,
  now: Date,
  random: () => number = Math.random,
): Date | null {
  if (now.getTime() - new Date(createdAt).getTime() >= RETRY_FOR_MS) return null;
  const base = Math.min(FIRST_DELAY_MS * 2 ** Math.min(attempts - 1, 30), MAX_DELAY_MS);
  const delay = Math.round(base * (0.8 + 0.4 * random()));
  return new Date(now.getTime() + delay);
}
