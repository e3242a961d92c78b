// The fetch function handed to openapi-fetch: every attempt of a call goes through here.
// It adds the bearer token, re-sends once with a fresh token after a 401, and retries.
//
// Why a fetch wrapper rather than openapi-fetch middleware: middleware runs once per call and cannot
// re-run the chain, so a retry made from `onResponse` would skip later middleware and show them the
// failed attempt. Here each attempt is a fresh clone of the request as the middleware left it, and
// the middleware see one request and the final response.
import { exchange, isRetryable, withRetries, type Attempt, type RetryPolicy } from './retry.js';
import type { TokenSource } from './token.js';

export type Fetch = (request: Request) => Promise<Response>;

interface TransportOptions {
  baseUrl: string;
  fetch: Fetch;
  tokens: TokenSource;
  policy: RetryPolicy;
  /** Aborts every call of the client. */
  signal: AbortSignal | undefined;
}

/** The path of `url` relative to the base URL's path (`/statements/v1/banking`). */
function relativePath(url: string, basePath: string): string {
  const { pathname } = new URL(url);
  return basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) || '/' : pathname;
}

/** A copy of `original` (never consumed itself) with the combined signal and the token. */
function attemptOf(original: Request, signal: AbortSignal, token: string | undefined): Request {
  const request = signal === original.signal ? original.clone() : new Request(original.clone(), { signal });
  if (token !== undefined) request.headers.set('Authorization', `Bearer ${token}`);
  return request;
}

export function createTransport({ baseUrl, fetch, tokens, policy, signal: clientSignal }: TransportOptions): Fetch {
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');

  return async (original) => {
    const signal = clientSignal ? AbortSignal.any([original.signal, clientSignal]) : original.signal;
    const path = relativePath(original.url, basePath);
    // A write with an Idempotency-Key is safe to re-send: the server replays the first answer.
    const retryable = isRetryable(original.method, path) || original.headers.has('Idempotency-Key');
    const anonymous = path === '/oauth/token';
    let refreshed = false;

    const attempt = async (): Promise<Attempt> => {
      const token = anonymous ? undefined : await tokens.get(signal);
      const outcome = await exchange(fetch, attemptOf(original, signal, token));
      // A 401 means the token was refused before anything ran: any call may be re-sent, once.
      if (token === undefined || refreshed || !('response' in outcome) || outcome.response.status !== 401)
        return outcome;
      refreshed = true;
      tokens.invalidate(token);
      await outcome.response.body?.cancel().catch(() => undefined);
      return exchange(fetch, attemptOf(original, signal, await tokens.get(signal)));
    };
    return withRetries(attempt, { policy, retryable, signal, request: original });
  };
}

/** Sends a request that carries its own credentials (the token request), with retries. */
export function createAnonymousSender(fetch: Fetch, policy: RetryPolicy) {
  return (request: Request, signal: AbortSignal) =>
    withRetries(() => exchange(fetch, request.clone()), { policy, retryable: true, signal, request });
}
