// The typed client of the Company Finance Service: the openapi-fetch client for every operation of
// the contract, plus token handling, retries, request ids, pagination iterators and typed errors.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import { paginators, type Paginators } from './paginate.js';
import { sandboxHelpers, type SandboxHelpers } from './sandbox.js';
import { exporters, type Exporters } from './exports.js';
import { syncFeeds, type SyncFeeds } from './sync.js';
import { requestIdMiddleware } from './request-id.js';
import { idempotencyKeyMiddleware } from './idempotency.js';
import { etagMiddleware, type ETagOptions } from './etags.js';
import { RETRY_DEFAULTS, type RetryOptions } from './retry.js';
import { TokenSource, clientCredentialsGrant, type Clock } from './token.js';
import { refreshTokenGrant, type AppTokens } from './authorization-code.js';
import { createAnonymousSender, createTransport, type Fetch } from './transport.js';

/** The company's own API client: client id and secret (client-credentials grant). */
interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** Scopes to ask for, a subset of the client's (`['statements:read']` or `'statements:read directory:read'`). */
  scope?: string | readonly string[];
  app?: undefined;
}

/** An app acting for a company: the tokens its approval gave (`exchangeAuthorizationCode`), refreshed as needed. */
interface ApprovedApp {
  app: {
    clientId: string;
    /** Confidential apps only. */
    clientSecret?: string;
    tokens: AppTokens;
    /** Receives every new token pair (the refresh token rotates): persist it. */
    onTokens: (tokens: AppTokens) => void | Promise<void>;
  };
  clientId?: undefined;
  clientSecret?: undefined;
  scope?: undefined;
}

export type FinanceClientOptions = (ClientCredentials | ApprovedApp) & {
  /** The API's base URL, e.g. `https://sandbox.finance.example` or `http://localhost:8080`. */
  baseUrl: string;
  /** The token endpoint; default `<baseUrl>/oauth/token`. */
  tokenUrl?: string;
  /** The transport; default the global `fetch`. Every attempt (token requests included) goes through it. */
  fetch?: Fetch;
  /** The time used to decide when the token needs refreshing; default the system clock. */
  clock?: Clock;
  /** Refresh the token this long before it expires; default 60 000 ms. */
  refreshBeforeExpiryMs?: number;
  retry?: RetryOptions;
  /** Aborts every call of this client (each call also takes its own `signal`). */
  signal?: AbortSignal;
  /**
   * Conditional requests: keep each GET answer's `ETag` and body, revalidate with `If-None-Match`
   * (a `304` is served from what was kept), and with `{ifMatch: true}` send the tag as `If-Match` on
   * writes to the same URL. Off by default.
   */
  etags?: boolean | ETagOptions;
};

export type FinanceClient = Client<paths> & {
  /** Async iterators over every paged list: `for await (const user of client.paginate.users())`. */
  paginate: Paginators;
  /** The sandbox's test helpers and test clock (not available in production). */
  sandbox: SandboxHelpers;
  /** Statement exports as CSV or OFX, streamed: `await finance.exports.banking({ format: 'ofx' })`. */
  exports: Exporters;
  /** The statements' change feeds: a page at a time (`for await (const page of finance.sync.bankingPages({ cursor }))`) or every page at once (`finance.sync.bankingTransactions(cursor)`). */
  sync: SyncFeeds;
};

/** Comma-separated arrays (`status=1,2`), as the contract's `style: form, explode: false` parameters. */
export const querySerializer = { array: { style: 'form', explode: false } } as const;

export function createFinanceClient(options: FinanceClientOptions): FinanceClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetch: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const policy = { ...RETRY_DEFAULTS, ...options.retry };
  const tokens = new TokenSource({
    tokenUrl: options.tokenUrl ?? `${baseUrl}/oauth/token`,
    grant: options.app
      ? refreshTokenGrant(
          { clientId: options.app.clientId, clientSecret: options.app.clientSecret },
          options.app.tokens,
          options.app.onTokens,
        )
      : clientCredentialsGrant(options.clientId, options.clientSecret, options.scope),
    clock: options.clock ?? { now: () => new Date() },
    refreshBeforeMs: options.refreshBeforeExpiryMs ?? 60_000,
    send: createAnonymousSender(fetch, policy),
    signal: options.signal ?? new AbortController().signal,
  });
  const transport = createTransport({ baseUrl, fetch, tokens, policy, signal: options.signal });
  const client = createClient<paths>({ baseUrl, fetch: transport, querySerializer });
  client.use(requestIdMiddleware, idempotencyKeyMiddleware);
  if (options.etags) client.use(etagMiddleware(options.etags === true ? {} : options.etags));
  return Object.assign(client, {
    paginate: paginators(client),
    sandbox: sandboxHelpers(client),
    exports: exporters(client),
    sync: syncFeeds(client),
  });
}

export {
  FinanceApiError,
  unwrap,
  isFinanceApiError,
  isBadRequest,
  isNotFound,
  isConflict,
  isUnauthorized,
  isForbidden,
  isRateLimited,
  hasVcnCode,
  FinanceNetworkError,
  isFinanceNetworkError,
  type ErrorReason,
  type FieldProblem,
  type VcnErrorCode,
} from './errors.js';
export {
  saveExport,
  type Exporters,
  type ExportOptions,
  type BankingExportQuery,
  type CreditCardExportQuery,
} from './exports.js';
export type {
  SyncFeeds,
  SyncOptions,
  SyncPage,
  SyncPagesOptions,
  SyncResult,
  BankingSyncQuery,
  CreditCardSyncQuery,
} from './sync.js';
export type { ETagOptions } from './etags.js';
export { paginate, type PaginateOptions, type PagedPath, type ListQuery, type ItemOf } from './paginate.js';
export { isRetryable, retryAfterMs, RETRY_DEFAULTS, SAFE_OPERATIONS, type RetryOptions } from './retry.js';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventType } from './webhooks.js';
export type { SandboxCallOptions, SandboxHelpers } from './sandbox.js';
export type { Clock } from './token.js';
export type { Fetch } from './transport.js';
export type { paths, components, operations } from './generated/openapi.js';
export {
  startAuthorization,
  exchangeAuthorizationCode,
  type AppIdentity,
  type AppTokens,
  type AuthorizationStart,
} from './authorization-code.js';
