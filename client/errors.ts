// Typed errors. `unwrap()` turns an openapi-fetch result into its data, or throws a FinanceApiError
// carrying every field of the error body; the plain `{data, error}` style stays available.
import type { components } from './generated/openapi.js';

/** Why a call failed, as a stable snake_case word (the contract's `ErrorReason`; docs: "Error reasons"). */
export type ErrorReason = components['schemas']['ErrorReason'];

/** One problem with one field (users/invites `details`, VCN `errors`). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The stable codes of the virtual-card error body; other strings may appear in later versions. */
export type VcnErrorCode =
  | 'invalid-vcn-request'
  | 'bad-request-exception'
  | 'active-funding-card-not-found'
  | 'vcn-not-found'
  | 'vcn-already-exists'
  | 'vcn-limit-conflict'
  | 'vcn-not-active'
  | 'vcn-not-updatable'
  | 'vcn-provider-unavailable'
  | 'unauthorized'
  | 'forbidden'
  | 'too-many-requests'
  | 'internal-exception'
  | (string & {});

interface FinanceApiErrorInit {
  status: number;
  error: string;
  message: string;
  code: number | VcnErrorCode;
  requestId?: string | undefined;
  details?: Array<string | FieldProblem>;
  errors?: FieldProblem[];
  reason?: ErrorReason | undefined;
  param?: string | undefined;
  docUrl?: string | undefined;
  body?: unknown;
}

/**
 * A failed call. `code` is the HTTP status on most operations, the kebab-case string code on the
 * virtual-card operations, and the RFC 6749 error (`invalid_client`…) is in `error` for the token
 * endpoint. Branch on `status` and `code`, never on `message`.
 */
export class FinanceApiError extends Error {
  override readonly name = 'FinanceApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The HTTP reason phrase ("Conflict"), or the OAuth error code on the token endpoint. */
  readonly error: string;
  readonly code: number | VcnErrorCode;
  /** Equals the `X-Request-Id` response header: quote it when contacting support. */
  readonly requestId: string | undefined;
  /** Strings on most operations; `{field, message}` on the users and invites operations. */
  readonly details: Array<string | FieldProblem>;
  /** Field problems of a VCN `bad-request-exception` (`body.amount.rate`…); empty elsewhere. */
  readonly errors: FieldProblem[];
  /** Why, in a stable word to branch on (`'unknown_field'`, `'insufficient_scope'`…); absent on OAuth errors. */
  readonly reason: ErrorReason | undefined;
  /** The field or parameter at fault, as the request named it (`isConcilied`, `status`). */
  readonly param: string | undefined;
  /** The docs section explaining `reason`. */
  readonly docUrl: string | undefined;
  /** The parsed response body (or its text when it was not JSON). */
  readonly body: unknown;

  constructor(init: FinanceApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.error = init.error;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details ?? [];
    this.errors = init.errors ?? [];
    this.reason = init.reason;
    this.param = init.param;
    this.docUrl = init.docUrl;
    this.body = init.body;
  }

  /** Builds the error from a failed response and its already-parsed body. */
  // The token endpoint answers RFC 6749 errors (`{error, error_description, requestId}`): their
  // `error` code maps to the reason of the same meaning.
  static from(response: Response, body: unknown): FinanceApiError {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
    const list = <T>(v: unknown) => (Array.isArray(v) ? (v as T[]) : []);
    const code = typeof b.code === 'number' || typeof b.code === 'string' ? b.code : response.status;
    return new FinanceApiError({
      status: response.status,
      error: text(b.error) ?? (response.statusText || `HTTP ${response.status}`),
      message:
        text(b.message) ??
        text(b.error_description) ??
        (typeof body === 'string' && body ? body.slice(0, 500) : `HTTP ${response.status}`),
      code,
      requestId: text(b.requestId) ?? response.headers.get('X-Request-Id') ?? undefined,
      details: list<string | FieldProblem>(b.details),
      errors: list<FieldProblem>(b.errors),
      reason:
        (text(b.reason) as ErrorReason | undefined) ??
        (b.code === undefined ? OAUTH_REASONS[String(b.error)] : undefined),
      param: text(b.param),
      docUrl: text(b.docUrl),
      body,
    });
  }

  /** Reads the body of a failed response and builds the error. */
  static async fromResponse(response: Response): Promise<FinanceApiError> {
    const raw = await response.text().catch(() => '');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // not JSON (a proxy's HTML page, say): keep the text
    }
    return FinanceApiError.from(response, body);
  }
}

/** The reason of each RFC 6749 §5.2 error code of the token endpoint. */
const OAUTH_REASONS: Record<string, ErrorReason> = {
  invalid_request: 'invalid_request',
  invalid_client: 'unauthenticated',
  invalid_grant: 'unauthenticated',
  unauthorized_client: 'insufficient_scope',
  unsupported_grant_type: 'invalid_value',
  invalid_scope: 'insufficient_scope',
};

/**
 * Awaits an openapi-fetch call and returns its data, or throws a FinanceApiError.
 * `const page = await unwrap(client.GET('/suppliers/v1/suppliers'))`
 */
export async function unwrap<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (!response.ok) throw FinanceApiError.from(response, error);
  return data as D;
}

export const isFinanceApiError = (e: unknown): e is FinanceApiError => e instanceof FinanceApiError;
export const isUnauthorized = (e: unknown): e is FinanceApiError => isFinanceApiError(e) && e.status === 401;
export const isForbidden = (e: unknown): e is FinanceApiError => isFinanceApiError(e) && e.status === 403;
export const isRateLimited = (e: unknown): e is FinanceApiError => isFinanceApiError(e) && e.status === 429;

/**
 * The server could not be reached, or its answer was lost (connection refused or reset, DNS, TLS),
 * after the retries the call allowed. `cause` is the transport's own error. For a write that is
 * not safe to repeat, the write may or may not have happened: check before sending it again.
 */
export class FinanceNetworkError extends Error {
  override readonly name = 'FinanceNetworkError';
  constructor(
    readonly method: string,
    readonly url: string,
    cause: unknown,
  ) {
    super(`${method} ${url} failed on the network: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

export const isFinanceNetworkError = (e: unknown): e is FinanceNetworkError => e instanceof FinanceNetworkError;
export const isBadRequest = (e: unknown): e is FinanceApiError => isFinanceApiError(e) && e.status === 400;
export const isNotFound = (e: unknown): e is FinanceApiError => isFinanceApiError(e) && e.status === 404;
export const isConflict = (e: unknown): e is FinanceApiError => isFinanceApiError(e) && e.status === 409;

/** True when `e` is a virtual-card error with this code: `hasVcnCode(e, 'vcn-already-exists')`. */
export const hasVcnCode = (e: unknown, code: VcnErrorCode): e is FinanceApiError =>
  isFinanceApiError(e) && e.code === code;
