// The access token: fetched with a grant (client credentials, or an app's refresh token), cached,
// refreshed shortly before it expires or after the server refused it. Concurrent callers share one
// token request.
import { FinanceApiError } from './errors.js';

/** A source of the current time; a test clock (`{ now(): Date }`) fits. */
export interface Clock {
  now(): Date;
}

/** What the token endpoint answered, as the grant may need it (a rotated refresh token). */
export interface TokenAnswer {
  access_token: string;
  expires_in: number;
  scope?: string;
  refresh_token?: string;
  /** The company that approved the app (authorization-code and refresh grants). */
  company_id?: string;
  company_name?: string;
}

/** How the next token is asked for, and what to do with the answer. */
export interface TokenGrant {
  /** The form and headers of the next token request. */
  request(): { form: URLSearchParams; headers: Record<string, string> };
  /** Called with each answer before its token is handed out (persists a rotated refresh token). */
  received?(answer: TokenAnswer, expiresAt: Date): void | Promise<void>;
  /** A token already held (kept from an earlier run), used until it is due for refreshing. */
  initial?: { accessToken: string; expiresAt: Date };
}

/** The client-credentials grant (RFC 6749 §4.4) with HTTP Basic. */
export function clientCredentialsGrant(
  clientId: string,
  clientSecret: string,
  scope?: string | readonly string[],
): TokenGrant {
  return {
    request: () => {
      const form = new URLSearchParams({ grant_type: 'client_credentials' });
      if (scope !== undefined) form.set('scope', typeof scope === 'string' ? scope : scope.join(' '));
      return { form, headers: { Authorization: basic(clientId, clientSecret) } };
    },
  };
}

interface TokenSourceOptions {
  tokenUrl: string;
  grant: TokenGrant;
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
export function basic(id: string, secret: string): string {
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

  constructor(private readonly options: TokenSourceOptions) {
    const initial = options.grant.initial;
    if (initial) {
      const expiresAt = initial.expiresAt.getTime();
      this.held = { value: initial.accessToken, refreshAt: expiresAt - options.refreshBeforeMs };
    }
  }

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
    const { tokenUrl, grant, clock, send, signal } = this.options;
    const { form, headers } = grant.request();
    const request = new Request(tokenUrl, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: form.toString(),
      signal,
    });
    const sentAt = clock.now().getTime();
    const response = await send(request, signal);
    if (!response.ok) throw await FinanceApiError.fromResponse(response);
    const body = (await response.json()) as Partial<Record<keyof TokenAnswer, unknown>>;
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
    await grant.received?.(body as TokenAnswer, new Date(sentAt + lifetime));
    this.held = {
      value: body.access_token,
      refreshAt: sentAt + Math.max(lifetime - this.options.refreshBeforeMs, lifetime / 2),
    };
    return this.held;
  }
}
