// One delivery attempt: the event signed per Standard Webhooks, sent to the endpoint's URL of the
// moment over a pinned connection, with a time limit, and its outcome recorded — succeeded, retried
// with backoff, or failed for good — with the endpoint's failure window.
import type { Logger } from 'pino';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { WebhookDeliveryRow } from './tables.js';
import { findEvent, presentEvent } from '../events/public.js';
import { recordAttempt } from './queue.js';
import { releaseClaim } from './claim.js';
import { nextAttemptAt } from './backoff.js';
import { findEndpointById, markEndpointFailing, markEndpointHealthy, signingSecrets } from './store.js';
import { signatureHeaders } from './sign.js';
import { urlShapeProblem } from './url-policy.js';
import type { pinnedFetch } from './pinned-fetch.js';

/** An attempt without an answer by then has failed. */
const ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * `sent` and `failed` were attempts of the endpoint's; `abandoned`, a send its stopping worker gave
 * up (the delivery released, no attempt counted); `unsent`, nothing to send (the endpoint disabled,
 * its deliveries given up; or the endpoint or the event gone).
 */
type AttemptResult = 'sent' | 'failed' | 'abandoned' | 'unsent';

interface AttemptOptions {
  db: Db;
  clock: Clock;
  wallClock: Clock;
  logger: Logger;
  allowPrivate: boolean;
  sender: ReturnType<typeof pinnedFetch>;
  random: () => number;
}

/** Attempts a claimed delivery; `halt` abandons the send. */
export function attempter(options: AttemptOptions) {
  const { db, clock, wallClock, logger, allowPrivate, sender, random } = options;
  return async function attempt(delivery: WebhookDeliveryRow, halt: AbortSignal): Promise<AttemptResult> {
    const endpoint = await findEndpointById(db, delivery.endpoint_id);
    const event = await findEvent(db, delivery.event_id);
    if (!endpoint || !event) return 'unsent';
    if (endpoint.status !== 'enabled') {
      await recordAttempt(db, delivery, {
        at: clock.now(),
        statusCode: null,
        error: 'the endpoint is disabled',
        durationMs: 0,
        succeeded: false,
        retryAt: null,
      });
      return 'unsent';
    }
    const startedAt = clock.now();
    const began = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    // The address written in the URL now; a name's addresses when the connection resolves it.
    const problem = urlShapeProblem(endpoint.url, allowPrivate);
    if (problem) {
      error = problem;
    } else {
      const body = JSON.stringify(presentEvent(event));
      try {
        const res = await sender.send(endpoint.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'CompanyFinance-Webhooks/1.0',
            ...signatureHeaders(delivery.id, wallClock.now(), body, signingSecrets(endpoint, startedAt)),
          },
          body,
          signal: AbortSignal.any([AbortSignal.timeout(ATTEMPT_TIMEOUT_MS), halt]),
        });
        statusCode = res.status;
        await res.body?.cancel().catch(() => undefined);
        if (res.status < 200 || res.status > 299) error = `the endpoint answered ${res.status}`;
      } catch (err) {
        if (halt.aborted) {
          await releaseClaim(db, delivery);
          return 'abandoned';
        }
        error =
          err instanceof Error && err.name === 'TimeoutError'
            ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`
            : `could not connect: ${((err as Error).cause as Error | undefined)?.message ?? (err as Error).message}`;
      }
    }
    const durationMs = Math.round(performance.now() - began);
    const now = clock.now();
    const succeeded = error === null;
    const retryAt = succeeded ? null : nextAttemptAt(delivery.created_at, delivery.attempts + 1, now, random);
    await recordAttempt(db, delivery, { at: startedAt, statusCode, error, durationMs, succeeded, retryAt });
    if (succeeded) await markEndpointHealthy(db, endpoint.id);
    else if (await markEndpointFailing(db, endpoint.id, now))
      logger.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after 3 days of failures');
    return succeeded ? 'sent' : 'failed';
  };
}
