// The request path of the contract's operations: one chain per operation, built once at start from
// the contract index, holding the steps that apply to that operation and no others, in this order:
//   load shedding → authentication with its scopes → rate limit → a versioned read's early 304 →
//   bracketed query arrays → a NUL in the query → media type → the operation's preflight → body (its member limit) →
//   strict numbers → contract validation → idempotency → If-Match → the handler and its answer.
// Each step reads and fills the request's typed context (context.ts) and throws the ApiError that
// refuses the request; a step that answers (a 304, an idempotent replay) ends the chain. Dispatch is
// one match against the contract (404 and 405 before any credential check; HEAD runs the GET) and a
// lookup of the operation's chain. What an operation needs is read from the contract (its security,
// media types, parameters, `x-max-members`) or declared beside its handler (`preflights`).
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Store } from 'express-rate-limit';
import type { ContractIndex, ContractOperation } from '../../contract/index.js';
import type { HandlerContext, Handlers, Preflights, Services, StreamBody } from '../../kit/handler.js';
import { contextOf, type RequestContext, type Step } from './context.js';
import { noOperation } from './operation.js';
import { authentication } from './auth.js';
import { rateLimitStep } from '../ops/rate-limit.js';
import { shedOverload, type LagProbe } from '../ops/overload.js';
import {
  answeredNotModified,
  declaresIfNoneMatch,
  notModifiedEarly,
  rawTag,
  versionedTag,
} from '../mechanisms/conditional.js';
import { rejectBracketedArrays, rejectNulInQuery } from '../mechanisms/query-arrays.js';
import { mediaTypeCheck } from '../mechanisms/media-type.js';
import { assertJsonShape, assertWellFormed, MAX_JSON_MEMBERS } from '../mechanisms/json-shape.js';
import { strictNumbers } from '../mechanisms/strict-numbers.js';
import { isPlainJson, readPlainJson } from '../mechanisms/json-body.js';
import { contractValidator, recordBodySize } from '../validator/validator.js';
import { checkIfMatch, itemReads } from '../mechanisms/preconditions.js';
import { guardWrites } from '../../db/transaction.js';
import type { Db } from '../../db/database.js';
import { textETag } from '../../kit/item-etag.js';
import { writeJson } from '../mechanisms/json-answer.js';
import type { AnswerCache } from '../mechanisms/answer-cache.js';
import { requestConfig } from '../served-contract.js';
import type { Config } from '../../config.js';

const UPLOAD_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/heic'];
const MAX_JSON_BYTES = 1024 * 1024;
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

type Reply = {
  status: number;
  body?: unknown;
  raw?: Buffer | Uint8Array;
  contentType?: string;
  stream?: StreamBody;
  headers?: Record<string, string>;
};
type AnyHandler = (input: unknown, ctx: HandlerContext) => Promise<Reply>;

/** The step that replays an `Idempotency-Key` (server/idempotency), given by the composition. */
type IdempotencyStep = (operation: ContractOperation, services: Services, logger: Logger) => Step | undefined;

interface PipelineOptions {
  /** The handler registry (server/operations.ts), by operationId: the pipeline knows no area. */
  handlers: Handlers;
  /** The operations' preflights, declared beside their handlers. */
  preflights: Preflights;
  idempotency: IdempotencyStep;
  services: Services;
  /** The versioned reads' answers kept by tag (http/mechanisms/answer-cache.ts); none when ANSWER_CACHE_MB=0. */
  answers: AnswerCache | undefined;
  index: ContractIndex;
  config: Config;
  logger: Logger;
  lagProbe: () => LagProbe;
  rateLimitStore: Store | undefined;
}

/**
 * An Express middleware (req, res, next) run as a step: one that calls `next` before it returns (the
 * validator) is a synchronous step, one that calls it later (the body parsers) a promise. A middleware
 * that calls `next` again later (the validator's response check, from its wrapper of res.json) reaches
 * the error handler.
 */
const asStep =
  (middleware: (req: Request, res: Response, next: (err?: unknown) => void) => unknown): Step =>
  (req, res, context) => {
    let settled = false;
    let failure: unknown;
    let later: { resolve: () => void; reject: (err: unknown) => void } | undefined;
    middleware(req, res, (err?: unknown) => {
      if (settled) return err ? context.fail?.(err) : undefined;
      settled = true;
      if (later) return err ? later.reject(err) : later.resolve();
      failure = err;
    });
    if (settled) {
      if (failure) throw failure;
      return;
    }
    return new Promise<void>((resolve, reject) => {
      later = { resolve, reject };
    });
  };

/**
 * The body parsers, by media type; a JSON body's members counted before it is parsed. An operation that
 * takes a body gets the parser of the media type it was sent as (the media-type step checked it);
 * a body sent to one that takes none is still read by whichever parser knows its type.
 */
function bodyReader(operation: ContractOperation): Step {
  const maxMembers = operation.maxJsonMembers ?? MAX_JSON_MEMBERS;
  const keep = (req: Request, res: Response, buf: Buffer) => {
    recordBodySize(req, res, buf);
    const context = contextOf(res);
    context.bodyBytes = buf.length;
    context.rawBody = buf;
  };
  const verifyJson = (req: Request, res: Response, buf: Buffer) => {
    keep(req, res, buf);
    assertJsonShape(buf, maxMembers);
  };
  const parsed = asStep(
    express.json({
      limit: MAX_JSON_BYTES,
      verify: (req, res, buf) => verifyJson(req as Request, res as Response, buf),
    }),
  );
  // What a client library sends (a length, no encoding, UTF-8) is read without body-parser's other work.
  const json: Step = async (req, res, context) => {
    if (!isPlainJson(req, MAX_JSON_BYTES)) return parsed(req, res, context);
    req.body = await readPlainJson(req, (buf) => verifyJson(req, res, buf));
  };
  const form = asStep(
    express.urlencoded({
      extended: false,
      limit: '16kb',
      verify: (req, res, buf) => keep(req as Request, res as Response, buf),
    }),
  );
  const upload = asStep(express.raw({ type: UPLOAD_TYPES, limit: MAX_UPLOAD_BYTES }));
  const byType = new Map<string, Step>([
    ['application/json', json],
    ['application/x-www-form-urlencoded', form],
    ...UPLOAD_TYPES.map((type): [string, Step] => [type, upload]),
  ]);
  const any = [json, form, upload];
  const read: Step = async (req, res, context) => {
    const parser = context.mediaType === undefined ? undefined : byType.get(context.mediaType);
    if (parser) await parser(req, res, context);
    else for (const parse of any) await parse(req, res, context);
    if (req.body !== undefined && !Buffer.isBuffer(req.body)) assertWellFormed(req.body);
  };
  return (req, res, context) => {
    // No body at all (not even an empty one): skipped, as each parser would skip it (type-is's hasBody),
    // and at once (the chain awaits only a step that returns a promise).
    if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) {
      (req as { body?: unknown }).body = undefined;
      return;
    }
    return read(req, res, context);
  };
}

/** The handler of the operation and the writing of its answer (its ETag, a 304, the body). */
function answer(
  operation: ContractOperation,
  { handlers, services, answers }: PipelineOptions,
  reads: Map<string, ContractOperation>,
): Step {
  const handlerOf = (operationId: string) =>
    (handlers as unknown as Record<string, AnyHandler | undefined>)[operationId];
  const handler = handlerOf(operation.operationId);
  if (!handler) throw new Error(`no handler for ${operation.operationId}`);
  const conditional = declaresIfNoneMatch(operation);
  const read = reads.get(operation.operationId);
  const readHandler = read ? handlerOf(read.operationId) : undefined;
  return async (req, res, context) => {
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    const versioned =
      conditional && isRead
        ? (context.versionedTag ?? (await versionedTag(services, operation.operationId, req, context.auth)))
        : undefined;
    if (versioned !== undefined && answeredNotModified(req, res, versioned)) return;
    // The same tag, the same answer: the bytes answered under it before, when this process kept them.
    const kept = versioned === undefined ? undefined : answers?.get(versioned);
    if (kept !== undefined) {
      if (kept.headers) for (const name in kept.headers) res.setHeader(name, kept.headers[name]!);
      answeredNotModified(req, res, versioned!, true);
      res.statusCode = 200;
      context.keptAnswer = true;
      context.logFields = { ...context.logFields, answer: 'kept' };
      writeJson(res, kept.body);
      return;
    }
    const params = context.match?.params ?? {};
    const ctx = handlerContext(services, req, res, context);
    const guards = [...(context.writeGuards ?? [])];
    const read = (db?: Db) =>
      readHandler!({ params, query: {}, body: undefined }, db === undefined ? ctx : { ...ctx, db });
    const precondition = readHandler ? await checkIfMatch(req, read, !context.recoveringWrites) : undefined;
    if (precondition) guards.push(precondition);
    const reply = await guardWrites(guards, () => handler({ params, query: req.query, body: req.body }, ctx));
    // Every write that takes If-Match must make its change in a write transaction (the only place the tag
    // is compared where it decides); one that did not is found by the suite (answers validated there).
    if (precondition && !precondition.held && reply.status < 300 && services.config.validateResponses)
      throw new Error(`${operation.operationId} answered ${reply.status} to If-Match without a write transaction`);
    // A write of this process (committed by now) is never answered from what was kept before it.
    if (!isRead && context.auth && services.kept) {
      services.kept.statementVersions.forgetOwner(context.auth.companyId);
      services.kept.tokens.forgetOwner(context.auth.companyId);
    }
    if (reply.headers) for (const name in reply.headers) res.setHeader(name, reply.headers[name]!);
    const text = reply.body === undefined ? undefined : JSON.stringify(reply.body);
    if (conditional && isRead && reply.status === 200) {
      const tag =
        versioned ?? (reply.raw !== undefined ? rawTag(reply.raw) : text !== undefined ? textETag(text) : undefined);
      if (tag !== undefined && answeredNotModified(req, res, tag, true)) return;
    }
    res.statusCode = reply.status;
    if (reply.stream !== undefined) {
      res.type(reply.contentType ?? 'application/octet-stream');
      await reply.stream(res);
    } else if (reply.raw !== undefined) {
      res.type(reply.contentType ?? 'application/octet-stream').send(Buffer.from(reply.raw));
    } else if (text === undefined) {
      res.end();
    } else {
      if (services.config.validateResponses) {
        // The validator checks the answer in its wrapper of res.json (json-answer.ts), which writes it.
        res.json(reply.body);
      } else writeJson(res, text);
      // A versioned read's 200 is kept under its tag, with the handler's own headers (once the
      // validator, where it runs, let it through: otherwise the error handler answered).
      if (versioned !== undefined && answers !== undefined && reply.status === 200 && res.statusCode === 200)
        answers.set(versioned, { body: Buffer.from(text), headers: reply.headers });
    }
  };
}

const handlerContext = (services: Services, req: Request, res: Response, context: RequestContext): HandlerContext => ({
  db: services.db,
  clock: services.clock,
  config: requestConfig(req, services.config),
  issuer: services.issuer,
  index: services.index,
  auth: context.auth!,
  requestId: context.requestId,
  actor: {
    requestId: context.requestId,
    clientId: context.auth?.clientId ?? null,
    clockOffsetMs: context.auth?.clockOffsetMs,
  },
  req,
  res,
  logFields: (fields) => {
    context.logFields = { ...context.logFields, ...fields };
  },
});

/**
 * The contract's validation, except of a request that holds nothing to validate: an operation without
 * path parameters, body or required parameters, called without a query string and without any of
 * the headers it declares (unless answers are validated too: the same step checks them).
 */
function validation(operation: ContractOperation, validate: Step, validateResponses: boolean): Step {
  const headers = (operation.paramNames.header ?? []).map((name) => name.toLowerCase());
  const nothingToValidate =
    !validateResponses &&
    operation.pathNames.length === 0 &&
    operation.mediaTypes.length === 0 &&
    operation.requiredParams.length === 0;
  if (!nothingToValidate) return validate;
  return (req, res, context) => {
    if (req.url.includes('?') || req.body !== undefined || headers.some((name) => req.headers[name] !== undefined))
      return validate(req, res, context);
  };
}

/** The steps of one operation's chain, in order (see above). */
function chainOf(
  operation: ContractOperation,
  options: PipelineOptions,
  shared: {
    shed: Step | undefined;
    rateLimit: Step | undefined;
    validate: Step;
    reads: Map<string, ContractOperation>;
  },
): Step[] {
  const { services, logger, preflights, idempotency } = options;
  const preflight = preflights[operation.operationId as keyof Preflights]?.(services);
  const steps: Array<Step | undefined> = [
    shared.shed,
    authentication(operation, services),
    shared.rateLimit,
    notModifiedEarly(operation, services),
    rejectBracketedArrays,
    rejectNulInQuery,
    mediaTypeCheck(operation),
    preflight ? (req, res, context) => preflight(req, res, context.match?.params ?? {}) : undefined,
    bodyReader(operation),
    strictNumbers(operation),
    validation(operation, shared.validate, services.config.validateResponses),
    idempotency(operation, services, logger),
    answer(operation, options, shared.reads),
  ];
  return steps.filter((step): step is Step => step !== undefined);
}

async function run(steps: readonly Step[], req: Request, res: Response, context: RequestContext): Promise<void> {
  for (const step of steps) {
    const result = step(req, res, context);
    if (result !== undefined) await result;
    if (res.writableEnded) return;
  }
}

/**
 * The contract's operations as one Express middleware: the request's match, then its operation's
 * chain; a request outside the contract goes on (the docs, the probes, else 404).
 */
export function pipeline(options: PipelineOptions) {
  const { index, config, lagProbe, rateLimitStore } = options;
  const shared = {
    shed: shedOverload(config.overloadMaxLagMs, lagProbe),
    rateLimit: rateLimitStep(config.rateLimitPerMinute, rateLimitStore),
    validate: asStep(contractValidator(index, config)),
    reads: itemReads(index),
  };
  const chains = new Map<ContractOperation, readonly Step[]>();
  for (const operation of index.operations) chains.set(operation, chainOf(operation, options, shared));
  return (req: Request, res: Response, next: NextFunction): void => {
    const found = index.match(req.method, req.path);
    if (found.kind === 'none') return next();
    if (found.kind !== 'operation') return next(noOperation(found));
    // Express 5 parses the query string again at each read of req.query: read once, kept as the
    // request's own (the validator coerces it in place).
    if (req.url.includes('?'))
      Object.defineProperty(req, 'query', { value: req.query, writable: true, enumerable: true, configurable: true });
    const context = contextOf(res);
    context.match = { operation: found.operation, params: found.params };
    context.fail = next;
    run(chains.get(found.operation)!, req, res, context).catch(next);
  };
}
