// Typed errors. Handlers and stores throw these and never choose a body: server/http/pipeline/error-handler.ts
// renders each in the error body the contract gives the operation.
import type { components } from '../../generated/openapi.js';

/** The stable snake_case word every error body carries (`ErrorReason` in the contract). */
export type ErrorReason = components['schemas']['ErrorReason'];

/** What an error is about, when its status alone does not say (see `reasonOfStatus`). */
interface ErrorCause {
  reason?: ErrorReason;
  /** The field or parameter at fault, as the caller named it. */
  param?: string;
}

/** The reason of an error that names none: the usual meaning of its status. */
export function reasonOfStatus(status: number): ErrorReason {
  const reasons: Record<number, ErrorReason> = {
    400: 'invalid_request',
    401: 'unauthenticated',
    403: 'insufficient_scope',
    404: 'not_found',
    405: 'method_not_allowed',
    409: 'conflict',
    412: 'precondition_failed',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    422: 'unprocessable',
    429: 'rate_limited',
    503: 'service_unavailable',
  };
  return reasons[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request');
}

/** A problem of one field: `{field, message}` in the FieldError and VcnError bodies, its message in the common body. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** An error with an HTTP status; `details` as strings, or as field problems. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Array<string | FieldProblem> = [],
    readonly headers: Record<string, string> = {},
    readonly about: ErrorCause = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (
  message: string,
  details: Array<string | FieldProblem> = [message],
  cause: ErrorCause = {},
) => new ApiError(400, message, details, {}, cause);
export const notFound = (message = 'Resource not found') => new ApiError(404, message);
export const conflict = (message: string, details: Array<string | FieldProblem> = [message], cause: ErrorCause = {}) =>
  new ApiError(409, message, details, {}, cause);
export const unprocessable = (
  message: string,
  details: Array<string | FieldProblem> = [message],
  cause: ErrorCause = {},
) => new ApiError(422, message, details, {}, cause);
export const unauthorized = (
  message = 'The access token is missing, invalid or expired',
  challenge = 'Bearer realm="finance"',
) => new ApiError(401, message, [], { 'WWW-Authenticate': challenge });
export const forbidden = (message: string) => new ApiError(403, message);

/**
 * An error with its own virtual-card code (`vcn-limit-conflict`, …), rendered in the VcnError body
 * `{error, message, code: "<kebab-code>", requestId, errors?}`. Other errors of the VCN operations
 * get the code of their status from the error handler.
 */
export class VcnError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldProblem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'VcnError';
  }
}

/** The prefix of every `invalid-vcn-request` message, on create and on update alike. */
const INVALID_VCN_PREFIX = 'Invalid VCN request: ';
export const invalidVcnRequest = (reason: string) =>
  new VcnError(400, 'invalid-vcn-request', INVALID_VCN_PREFIX + reason);

/** An RFC 6749 §5.2 error of the token endpoint. */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly code:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_grant'
      | 'unauthorized_client'
      | 'unsupported_grant_type'
      | 'invalid_scope'
      | 'invalid_redirect_uri'
      | 'invalid_client_metadata',
    message: string,
  ) {
    super(message);
    this.name = 'OAuthError';
  }
}
