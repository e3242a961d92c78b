// Retries with exponential backoff and full jitter, bounded by count and by total time, abortable.
//
// What is retried:
//  - a network failure, a 503 and a 429, for idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS),
//    for the operations listed in SAFE_OPERATIONS, and for any write carrying an Idempotency-Key
//    (the client sets one on every write: idempotency.ts; the server replays the first answer);
//  - a 429 for every operation: the rate limiter refuses the request before anything runs;
//  - a 409 with Retry-After on a retryable write: its Idempotency-Key is held by an earlier attempt
//    still running (a retry after a lost answer arrived first); the wait ends in that attempt's answer.
//    (A virtual card being issued for the same booking key, or changed, says the same: it ends soon.)
// The wait is what the server asks: `Retry-After`, else the `t` of a used-up `RateLimit` quota, else
// the backoff; an ask longer than `maxDelayMs` is not waited for (the answer is returned).
// A POST (or PATCH) without a key and outside the list is sent once: a lost answer might hide a done write.
import { FinanceNetworkError } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt. Default 3; 0 turns retrying off. */
  maxRetries?: number;
  /** No wait starts that would end later than this after the first attempt. Default 30 000. */
  maxElapsedMs?: number;
  /** The first backoff ceiling; it doubles on each retry (full jitter: a random wait below it). Default 250. */
  baseDelayMs?: number;
  /** The longest single wait. A `Retry-After` (or `RateLimit` reset) asking for more is not waited for: the 429/503 is returned. Default 20 000. */
  maxDelayMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const RETRY_DEFAULTS: RetryPolicy = {
  maxRetries: 3,
  maxElapsedMs: 30_000,
  baseDelayMs: 250,
  maxDelayMs: 20_000,
};

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * Non-idempotent methods whose semantics make a repeat harmless:
 *  - the token endpoint: each call only mints a new token;
 *  - issuing a VCN: the booking key (`reservationId`, `recordLocator`, `customUse.id`) is an
 *    idempotency key. If the first attempt did issue a card, the repeat gets 409
 *    `vcn-already-exists` naming the live card, and never issues a second one;
 *  - a VCN top-up: `limit.value` and `endDate` are absolute values, not increments (with
 *    `limit.expectedValue`, a repeat of an applied top-up gets 409 `vcn-limit-conflict`);
 *  - annotating or reconciling a transaction: the fields are set, not added, and reconciling a
 *    reconciled transaction answers 204 and changes nothing.
 */
export const SAFE_OPERATIONS: ReadonlyArray<readonly [method: string, path: string]> = [
  ['POST', '/oauth/token'],
  ['POST', '/credit-cards/v1/vcns'],
  ['PATCH', '/credit-cards/v1/vcns/{vcnId}'],
  ['PATCH', '/statements/v1/banking/{transactionId}'],
  ['PATCH', '/statements/v1/credit-card/{transactionId}'],
];

const SAFE = SAFE_OPERATIONS.map(([method, path]) => ({
  method,
  pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
}));

/** Whether a failed attempt of `method pathname` may be sent again (pathname relative to the base URL). */
export function isRetryable(method: string, pathname: string): boolean {
  const m = method.toUpperCase();
  return IDEMPOTENT_METHODS.has(m) || SAFE.some((s) => s.method === m && s.pattern.test(pathname));
}

/** The outcome of one attempt: a response, or the error the transport threw. */
export type Attempt = { response: Response } | { failure: unknown };

/** Sends `request` once; a rejection that is not an abort becomes `{failure}`. */
export async function exchange(fetch: (request: Request) => Promise<Response>, request: Request): Promise<Attempt> {
  try {
    return { response: await fetch(request) };
  } catch (failure) {
    if (request.signal.aborted) throw failure;
    return { failure };
  }
}

/** Milliseconds a `Retry-After` header asks for (delta-seconds or HTTP date), or undefined. */
export function retryAfterMs(response: Response, now = Date.now()): number | undefined {
  const value = response.headers.get('Retry-After')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Milliseconds until a quota of the `RateLimit` header (draft-ietf-httpapi-ratelimit-headers:
 * `"default"; r=0; t=42`, items separated by commas) that has no requests left (`r=0`) resets: the
 * longest `t` of those, or undefined when none is used up.
 */
function rateLimitResetMs(response: Response): number | undefined {
  let wait: number | undefined;
  for (const item of (response.headers.get('RateLimit') ?? '').split(',')) {
    const params = new Map(
      item
        .split(';')
        .slice(1)
        .map((param) => param.trim().split('=') as [string, string | undefined]),
    );
    const [r, t] = [params.get('r'), params.get('t')];
    if (r === '0' && t !== undefined && /^\d+$/.test(t)) wait = Math.max(wait ?? 0, Number(t) * 1000);
  }
  return wait;
}

/** The wait before retry number `n` (0-based), or undefined when this outcome is final. */
function delayFor(outcome: Attempt, retryable: boolean, n: number, policy: RetryPolicy): number | undefined {
  const backoff = Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** n);
  if (!('response' in outcome)) return retryable ? backoff : undefined;
  const { status } = outcome.response;
  const keyInUse = status === 409 && outcome.response.headers.has('Retry-After');
  if (status !== 429 && !((status === 503 || keyInUse) && retryable)) return undefined;
  const asked = retryAfterMs(outcome.response) ?? rateLimitResetMs(outcome.response);
  if (asked === undefined) return backoff;
  return asked > policy.maxDelayMs ? undefined : Math.max(asked, backoff);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Runs `attempt` until its outcome is final, a bound is reached, or `signal` aborts. */
export async function withRetries(
  attempt: () => Promise<Attempt>,
  options: { policy: RetryPolicy; retryable: boolean; signal: AbortSignal; request: { method: string; url: string } },
): Promise<Response> {
  const { policy, retryable, signal, request } = options;
  const started = Date.now();
  for (let n = 0; ; n++) {
    const outcome = await attempt();
    const wait = n < policy.maxRetries ? delayFor(outcome, retryable, n, policy) : undefined;
    if (wait === undefined || Date.now() - started + wait > policy.maxElapsedMs) {
      if ('response' in outcome) return outcome.response;
      throw new FinanceNetworkError(request.method, request.url, outcome.failure);
    }
    if ('response' in outcome) await outcome.response.body?.cancel().catch(() => undefined);
    await sleep(wait, signal);
  }
}
