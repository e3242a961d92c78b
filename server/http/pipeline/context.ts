// What the pipeline knows about one request, in one typed record: started by the prelude (id, trace,
// clock), completed by the operation's chain (its match, the caller, the media type and body read) and
// read by the error handler and the access line. It lives on the response under a private symbol; the
// accessors below are the only way in.
import type { Request, Response } from 'express';
import type { AuthContext } from '../../kit/handler.js';
import type { ContractOperation } from '../../contract/index.js';
import type { WriteGuard } from '../../db/transaction.js';

/** The W3C trace context of a request (trace-context.ts). */
export interface TraceContext {
  traceId: string;
  spanId: string;
  /** `01` sampled, `00` not: the caller's decision, kept. */
  flags: string;
  /** The caller's vendor entries, passed on untouched. */
  traceState?: string;
}

export interface OperationMatch {
  operation: ContractOperation;
  /** The path parameters, percent-decoded. */
  params: Record<string, string>;
}

export interface RequestContext {
  requestId: string;
  trace: TraceContext | undefined;
  /** When the prelude saw the request (process.hrtime, nanoseconds). */
  startedNs: bigint;
  /** The contract operation the request matched; undefined outside the contract (docs, health). */
  match: OperationMatch | undefined;
  /** The caller, once authenticated. */
  auth: AuthContext | undefined;
  /** The bare media type of the request body (lower case), when its operation takes one. */
  mediaType: string | undefined;
  /** The size of the parsed body, in bytes. */
  bodyBytes: number;
  /** The body's bytes as sent (the idempotency fingerprint). */
  rawBody: Buffer | undefined;
  /** A versioned read's tag, computed before the body was read (conditional.ts). */
  versionedTag: string | undefined;
  /** What the answer was, for metrics: shed, refused by the rate limit, kept from before, or a dependency that failed. */
  shed: boolean;
  rateLimited: boolean;
  /** Answered with the bytes kept under its tag (http/mechanisms/answer-cache.ts). */
  keptAnswer: boolean;
  dependencyFailure: 'database' | 'busy' | undefined;
  dependencyError: unknown;
  /** Fields the handler adds to the request's access line (an export's filters and rows). */
  logFields: Record<string, unknown> | undefined;
  /** Hands an error raised after its step ended to the error handler (pipeline.ts). */
  fail: ((err: unknown) => void) | undefined;
  /** What the steps before the handler promise about its writes (its Idempotency-Key), checked in each write's transaction. */
  writeGuards: WriteGuard[] | undefined;
  /** An Idempotency-Key retry of an attempt whose write committed: the handler runs again to answer for it. */
  recoveringWrites: boolean;
}

const CONTEXT = Symbol('finance.request-context');
type WithContext = Response & { [CONTEXT]?: RequestContext };

/** Starts the request's context (the prelude, first thing). */
export function startContext(res: Response, requestId: string, trace: TraceContext | undefined): RequestContext {
  const context: RequestContext = {
    requestId,
    trace,
    startedNs: process.hrtime.bigint(),
    match: undefined,
    auth: undefined,
    mediaType: undefined,
    bodyBytes: 0,
    rawBody: undefined,
    versionedTag: undefined,
    shed: false,
    rateLimited: false,
    keptAnswer: false,
    dependencyFailure: undefined,
    dependencyError: undefined,
    logFields: undefined,
    fail: undefined,
    writeGuards: undefined,
    recoveringWrites: false,
  };
  (res as WithContext)[CONTEXT] = context;
  return context;
}

/** The request's context; an empty one for an answer the prelude never saw (Node's own 400s). */
export function contextOf(res: Response): RequestContext {
  return (res as WithContext)[CONTEXT] ?? startContext(res, '', undefined);
}

/** The request's match, or undefined when the contract has no such operation. */
export const matchOf = (res: Response): OperationMatch | undefined => (res as WithContext)[CONTEXT]?.match;

/** The request's operation, or undefined. */
export const operationOf = (res: Response): ContractOperation | undefined => matchOf(res)?.operation;

/** The bare media type the request was sent as, when its operation takes a body. */
export const mediaTypeOf = (res: Response): string | undefined => (res as WithContext)[CONTEXT]?.mediaType;

/** The request's id (X-Request-Id), or '' before the prelude ran. */
export const requestIdOf = (res: Response): string => (res as WithContext)[CONTEXT]?.requestId ?? '';

/**
 * One step of an operation's chain (pipeline.ts): reads the request, fills in the context, throws the
 * ApiError that refuses it, or answers it (ends the response: the chain stops there).
 */
export type Step = (req: Request, res: Response, context: RequestContext) => void | Promise<void>;
