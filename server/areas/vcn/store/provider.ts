// Calls to the card issuer: any failure, or no answer in time, is 503 vcn-provider-unavailable.
// The calls never run inside a transaction (the single database connection would be held for
// as long as the issuer takes): the operations reserve, call, then confirm or roll back.
import { VcnError } from '../../../kit/errors.js';

const ISSUER_TIMEOUT_MS = 10_000;

/**
 * A reservation (or a top-up in flight) older than this was left by a process that died between
 * reserving and confirming: no live request can still own it, since the issuer call times out
 * well before. It is then treated as absent and removed.
 */
export const ABANDONED_AFTER_MS = ISSUER_TIMEOUT_MS + 50_000;

/** Whether something started at `startedAt` (ISO) was abandoned, as of `now`. */
export const isAbandoned = (startedAt: string, now: Date): boolean =>
  now.getTime() - Date.parse(startedAt) > ABANDONED_AFTER_MS;

/**
 * A card issuer that failed or did not answer is an outage of a partner, not a blip: a retry is
 * asked for after a few seconds rather than at once (nothing was issued or changed; the key is free).
 */
const PROVIDER_RETRY_AFTER_SECONDS = 5;

export const providerUnavailable = () =>
  new VcnError(503, 'vcn-provider-unavailable', 'The card provider is unavailable; retry later', undefined, {
    'Retry-After': String(PROVIDER_RETRY_AFTER_SECONDS),
  });

/**
 * The `Retry-After` of a 409 that only says another request is busy with the same card or key (an
 * issue or a top-up between its reservation and its confirmation): the issuer call it waits on
 * usually ends within a second, and one that never ends is abandoned after ABANDONED_AFTER_MS.
 */
export const busyRetryAfter = () => ({ 'Retry-After': '1' });

/**
 * No issuer configured (CARD_ISSUER=none): the documented 503, answered before anything else is
 * checked (a missing funding card is not the caller's problem on a server that cannot issue), with
 * a message that says it is the server's configuration, and no Retry-After: waiting does not help.
 */
export function assertIssuerConfigured(issuer: { configured?: boolean }): void {
  if (issuer.configured === false)
    throw new VcnError(
      503,
      'vcn-provider-unavailable',
      'No card issuer is configured on this server (CARD_ISSUER=none): virtual cards cannot be issued or changed here until its operator configures one',
    );
}

export async function callIssuer<T>(call: () => Promise<T>, timeoutMs = ISSUER_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the card issuer did not answer in time')), timeoutMs);
  });
  try {
    return await Promise.race([call(), timeout]);
  } catch {
    throw providerUnavailable();
  } finally {
    clearTimeout(timer);
  }
}
