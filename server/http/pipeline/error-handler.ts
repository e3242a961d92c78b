// The one place that renders failures: every error leaves in the body the contract gives the
// operation's response of that status (the contract index, server/contract/), with the request id:
//  - the common body {error, message, code, requestId, details} (details as strings, or as
//    {field, message} where the schema is FieldError);
//  - the virtual-card body {error, message, code: "<kebab-code>", requestId, errors?};
//  - RFC 6749 §5.2 errors (the token endpoint).
// A request that matches no operation gets the common body. Handlers and stores throw typed errors
// (kit/errors.ts) and never choose a body.
import { STATUS_CODES } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import {
  ApiError,
  OAuthError,
  reasonOfStatus,
  VcnError,
  type ErrorReason,
  type FieldProblem,
} from '../../kit/errors.js';
import { newRequestId, requestIdOf } from './request-id.js';
import type { ContractIndex, ErrorBody } from '../../contract/index.js';
import { contextOf, operationOf } from './context.js';
import { servedBaseUrl } from '../served-contract.js';
import { validationErrors, type ValidatorItem } from '../validator/validation-errors.js';
import {
  isStoreBusy,
  isStoreUnavailable,
  RETRY_AFTER_SECONDS,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from '../../db/errors.js';
import { requestLogFields } from './trace-context.js';

interface ValidatorError {
  status: number;
  message: string;
  errors?: ValidatorItem[];
  headers?: Record<string, string>;
}

const MAX_PROBLEMS = 20;
/** Cuts a field name or message (which may quote a caller's key) to a readable length. */
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** "/body/amount/rate" or ".body.amount.rate" → "body.amount.rate" */
const fieldOf = (path: string) => path.replace(/^[./]+/, '').replace(/\//g, '.');
const withoutPart = (field: string) => field.replace(/^(body|query|params|path|headers)\.?/, '') || field;

const VCN_CODES: Record<number, string> = {
  400: 'bad-request-exception',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  409: 'conflict',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  422: 'idempotency-key-reused',
  429: 'too-many-requests',
  500: 'internal-exception',
  503: 'service-unavailable',
};

/** Turns anything thrown into (status, message, problems, headers); unexpected errors become a bare 500. */
function normalize(err: unknown): {
  status: number;
  message: string;
  problems: FieldProblem[];
  plain: Array<string | FieldProblem>;
  headers: Record<string, string>;
  expected: boolean;
  reason: ErrorReason;
  param?: string;
} {
  if (err instanceof ApiError) {
    const problems = err.details.map((d) => (typeof d === 'string' ? { field: '', message: d } : d));
    return {
      status: err.status,
      message: err.message,
      problems,
      plain: err.details,
      headers: err.headers,
      expected: true,
      reason: err.about.reason ?? reasonOfStatus(err.status),
      ...(err.about.param !== undefined ? { param: err.about.param } : {}),
    };
  }
  if (isStoreBusy(err)) {
    // Locks or serialization conflicts outlasted the store's own retries: the request changed nothing.
    const message = `The service is busy, retry in ${RETRY_AFTER_SECONDS} second${RETRY_AFTER_SECONDS === 1 ? '' : 's'}`;
    return {
      status: 503,
      message,
      problems: [{ field: '', message }],
      plain: [`Retry-After: ${RETRY_AFTER_SECONDS}`],
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      expected: true,
      reason: 'service_unavailable',
    };
  }
  if (isStoreUnavailable(err)) {
    const seconds = UNAVAILABLE_RETRY_AFTER_SECONDS;
    const message = `The service is temporarily unavailable, retry in ${seconds} seconds`;
    return {
      status: 503,
      message,
      problems: [{ field: '', message }],
      plain: [`Retry-After: ${seconds}`],
      headers: { 'Retry-After': String(seconds) },
      expected: true,
      reason: 'service_unavailable',
    };
  }
  const e = err as Partial<ValidatorError> & { type?: string; expose?: boolean; statusCode?: number };
  if (e?.type === 'entity.parse.failed') {
    return {
      status: 400,
      message: 'The request body is not valid JSON',
      problems: [{ field: 'body', message: 'malformed JSON' }],
      plain: ['body: malformed JSON'],
      headers: {},
      expected: true,
      reason: 'invalid_json',
    };
  }
  if (e?.type === 'entity.too.large') {
    return {
      status: 413,
      message: 'The request body is too large',
      problems: [],
      plain: [],
      headers: {},
      expected: true,
      reason: 'payload_too_large',
    };
  }
  if (e?.type && typeof e.statusCode === 'number' && e.statusCode < 500) {
    return {
      status: e.statusCode,
      message: 'The request body could not be read',
      problems: [],
      plain: [],
      headers: {},
      expected: true,
      reason: reasonOfStatus(e.statusCode),
    };
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && typeof e.message === 'string') {
    // At most MAX_PROBLEMS problems of bounded size: a body of a million unknown keys must not
    // produce a megabyte answer. 404/405/415 details would name internal routes
    // ("statements.v1.bank not found"), so they carry none.
    const routeLevel = e.status === 404 || e.status === 405 || e.status === 415;
    const all = routeLevel ? [] : (e.errors ?? []);
    const problems = all
      .slice(0, MAX_PROBLEMS)
      .map((item) => ({ field: clip(fieldOf(item.path)), message: clip(item.message) }));
    const plain = problems.map((p) => (p.field ? `${p.field} ${p.message}` : p.message));
    if (all.length > MAX_PROBLEMS) plain.push(`… and ${all.length - MAX_PROBLEMS} more problems`);
    const message =
      e.status === 404
        ? 'No such resource or operation'
        : e.status === 405
          ? 'Method not allowed on this resource'
          : e.status === 415
            ? "Unsupported media type: see the operation's request body in the contract"
            : clip(e.message.slice(0, 2000), 1000);
    const headers: Record<string, string> = e.headers?.Allow ? { Allow: e.headers.Allow } : {};
    const reason = e.status === 404 ? 'unknown_path' : reasonOfStatus(e.status);
    return { status: e.status, message, problems, plain, headers, expected: true, reason };
  }
  return {
    status: 500,
    message: 'An unexpected error occurred',
    problems: [],
    plain: [],
    headers: {},
    expected: false,
    reason: 'internal_error',
  };
}

/**
 * Which error body each request gets: its operation's, for the status. Errors raised before the
 * operation was matched (414, a 405) take the body of an operation at the request's path; a request
 * that matches no path gets the common body.
 */
function bodyChooser(index: ContractIndex) {
  return (req: Request, res: Response, status: number): ErrorBody => {
    let operation = operationOf(res);
    if (!operation) {
      const found = index.match(req.method, req.path);
      operation =
        found.kind === 'operation' ? found.operation : found.kind === 'none' ? undefined : found.operations[0];
    }
    return index.errorBody(operation, status);
  };
}

/**
 * Sends an error body: as is (the contract's body), or, when the caller's `Accept` prefers
 * `application/problem+json`, as RFC 9457 problem details — `type` (the reason's docs section),
 * `title`, `status`, `detail`, `instance` — with the contract body's members as extensions.
 */
function sendError(req: Request, res: Response, status: number, body: Record<string, unknown>): void {
  if (req.accepts(['application/json', 'application/problem+json']) !== 'application/problem+json') {
    res.status(status).json(body);
    return;
  }
  const problem = {
    type: body.docUrl ?? 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: body.message,
    instance: req.originalUrl.split('?')[0],
    ...body,
  };
  res.status(status).type('application/problem+json').send(JSON.stringify(problem));
}

export function errorHandler(logger: Logger, index: ContractIndex, config: Config) {
  const bodyOf = bodyChooser(index);
  const inCallersTerms = validationErrors(index);
  const fallback = lastResort(logger, index, config);
  return (thrown: unknown, req: Request, res: Response, _next: NextFunction): void => {
    try {
      render(thrown, req, res);
    } catch (failure) {
      fallback(failure, req, res);
    }
  };

  function render(thrown: unknown, req: Request, res: Response): void {
    const requestId = requestIdOf(res);
    const err = inCallersTerms(thrown, req, res);
    const explain = (reason: ErrorReason, param?: string) => ({
      reason,
      ...(param !== undefined ? { param } : {}),
      docUrl: `${servedBaseUrl(req, config)}/docs#/section/error-reasons/${reason}`,
    });

    if (err instanceof OAuthError || bodyOf(req, res, normalize(err).status) === 'oauth') {
      const n = normalize(err);
      const oauth =
        err instanceof OAuthError
          ? err
          : n.status >= 500
            ? undefined
            : new OAuthError(400, 'invalid_request', n.plain.join('; ') || n.message);
      if (oauth) {
        if (oauth.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="finance"');
        // Another method on the token endpoint stays a 405 with Allow, in the RFC 6749 body.
        const allow = n.status === 405 ? n.headers.Allow : undefined;
        if (allow) res.setHeader('Allow', allow);
        res
          .status(allow ? 405 : oauth.status)
          .setHeader('Cache-Control', 'no-store')
          .json({ error: oauth.code, error_description: oauth.message, requestId });
        return;
      }
    }

    if (err instanceof VcnError) {
      for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
      sendError(req, res, err.status, {
        error: STATUS_CODES[err.status] ?? 'Error',
        message: err.message,
        code: err.code,
        requestId,
        ...explain(reasonOfStatus(err.status), err.errors?.[0]?.field.replace(/^(body|query|params)\./, '')),
        ...(err.errors ? { errors: err.errors } : {}),
      });
      return;
    }

    const n = normalize(err);
    if (!n.expected) logger.error({ err, ...requestLogFields(res) }, 'unhandled error');
    else if (n.status === 503 && !(err instanceof ApiError)) {
      const unavailable = isStoreUnavailable(err);
      const context = contextOf(res);
      context.dependencyFailure = unavailable ? 'database' : 'busy';
      // An outage is logged once when it starts and once when it ends (prelude.ts, db/outage-log.ts).
      if (unavailable) context.dependencyError = err;
      else logger.warn({ err, ...requestLogFields(res) }, 'store busy');
    }
    for (const [name, value] of Object.entries(n.headers)) res.setHeader(name, value);
    const error = STATUS_CODES[n.status] ?? 'Error';

    const body = bodyOf(req, res, n.status);
    if (body === 'vcn') {
      const code = VCN_CODES[n.status] ?? 'internal-exception';
      const errors =
        n.status === 400
          ? n.problems.filter((p) => p.field).map((p) => ({ field: p.field, message: p.message }))
          : undefined;
      sendError(req, res, n.status, {
        error,
        message: n.message,
        code,
        requestId,
        ...explain(n.reason, n.param),
        ...(errors && errors.length > 0 ? { errors } : {}),
      });
      return;
    }
    const details =
      body === 'field'
        ? n.problems.map((p) => ({ field: withoutPart(p.field), message: p.message }))
        : n.plain.map((d) => (typeof d === 'string' ? d : d.message));
    sendError(req, res, n.status, {
      error,
      message: n.message,
      code: n.status,
      requestId,
      ...explain(n.reason, n.param),
      details,
    });
  }
}

/**
 * The last line of defence, past the error handler: an error raised while rendering an error, or
 * handed on after the chain has ended (the response validator rejecting an answer calls the `next`
 * of its own step), answers 500 in the operation's error body with the request id — written
 * directly, never through Express's default (HTML) handler. app.ts makes it the chain's end.
 */
export function lastResort(logger: Logger, index: ContractIndex, config: Config) {
  const bodyOf = bodyChooser(index);
  return (err: unknown, req: Request, res: Response): void => {
    const status = err === undefined ? 404 : 500;
    if (err !== undefined) logger.error({ err, ...requestLogFields(res) }, 'unhandled error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    let requestId = requestIdOf(res);
    if (!requestId) {
      requestId = newRequestId();
      res.setHeader('X-Request-Id', requestId);
    }
    let body: ErrorBody = 'common';
    try {
      body = bodyOf(req, res, status);
    } catch {
      // The common body.
    }
    const reason: ErrorReason = status === 404 ? 'unknown_path' : 'internal_error';
    const message = status === 404 ? 'No such resource or operation' : 'An unexpected error occurred';
    let docUrl = `/docs#/section/error-reasons/${reason}`;
    try {
      docUrl = `${servedBaseUrl(req, config)}${docUrl}`;
    } catch {
      // A relative link.
    }
    const error = STATUS_CODES[status] ?? 'Error';
    const payload =
      body === 'oauth'
        ? { error: 'server_error', error_description: message }
        : body === 'vcn'
          ? { error, message, code: VCN_CODES[status], requestId, reason, docUrl }
          : { error, message, code: status, requestId, reason, docUrl, details: [] };
    for (const name of ['content-length', 'content-disposition', 'content-encoding', 'etag', 'last-modified']) {
      res.removeHeader(name);
    }
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(JSON.stringify(payload));
  };
}
