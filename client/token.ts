// The access token: fetched with the client-credentials grant, cached, refreshed shortly before it
// expires or after the server refused it. Concurrent callers share one token request.
import { FinanceApiError } from './errors.js';

/** A source of the current time; a test clock (`{ now(): Date }`) fits. */
export interface Clock {
  now(): Date;
}

interface TokenSourceOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Scopes to ask for (a subset of the client's); omitted, the token carries all of them. */
  scope?: string | readonly string[] | undefined;
  clock: Clock;
  /** Refresh this long before the token expires. */
  refreshBeforeMs: number;
  /** Sends the token request (with retries); never adds a bearer token. */
  send: (request: Request, signal: AbortSignal) => Promise<Response>;
  /** Aborts the token requests themselves (the client-wide signal). */
  signal: AbortSignal;
}

interface Held {
  value: string;
  /** When to stop handing the token out: `refreshBeforeMs` before expiry, or half-way for short-lived tokens. */
  refreshAt: number;
}

/** HTTP Basic credentials, UTF-8 encoded (btoa alone only takes Latin-1). */
function basic(id: string, secret: string): string {
  const bytes = new TextEncoder().encode(`${id}:${secret}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

/** Resolves as `promise`, or rejects as soon as `signal` aborts (the shared promise keeps going). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export class TokenSource {
  private held: Held | undefined;
  private pending: Promise<Held> | undefined;

  constructor(private readonly options: TokenSourceOptions) {}

  /** A token valid for at least `refreshBeforeMs` more; waiting callers can give up with `signal`. */
  async get(signal?: AbortSignal): Promise<string> {
    const held = this.held;
    if (held && this.options.clock.now().getTime() < held.refreshAt) return held.value;
    return (await abortable(this.refresh(), signal)).value;
  }

  /** Forgets `token` after the server refused it, unless a newer token already replaced it. */
  invalidate(token: string): void {
    if (this.held?.value === token) this.held = undefined;
  }

  private refresh(): Promise<Held> {
    this.pending ??= this.request().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async request(): Promise<Held> {
    const { tokenUrl, clientId, clientSecret, scope, clock, send, signal } = this.options;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope !== undefined) form.set('scope', typeof scope === 'string' ? scope : scope.join(' '));
    const request = new Request(tokenUrl, {
      method: 'POST',
      headers: {
        Authorization: basic(clientId, clientSecret),
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: form.toString(),
      signal,
    });
    const sentAt = clock.now().getTime();
    const response = await send(request, signal);
    if (!response.ok) throw await FinanceApiError.fromResponse(response);
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number') {
      throw new FinanceApiError({
        status: response.status,
        error: 'invalid_token_response',
        message: 'The token endpoint answered without access_token and expires_in',
        code: response.status,
        body,
      });
    }
    const lifetime = body.expires_in * 1000;
    this.held = {
      value: body.access_token,
      refreshAt: sentAt + Math.max(lifetime - this.options.refreshBeforeMs, lifetime / 2),
    };
    return this.held;
  }
}
