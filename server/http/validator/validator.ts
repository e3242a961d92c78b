// express-openapi-validator 5.6.2 validates every request (and, when the configuration asks, every
// response) against the contract: its ajv validators, its coercion, its error list. It is driven
// here without its per-request routing: the stock middleware finds the operation again by compiling
// and scanning every route of the contract on each request and runs five steps through promises.
// The operation is already matched (operation.ts), so this step hands the validator that match — its
// own route record, built once from its own route table — and runs its request validator (then its
// response validator) as one synchronous step. The stock middleware stays the reference:
// test/http.validator-equivalence.test.ts compares the verdicts of both for every operation.
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { Config } from '../../config.js';
import type { ContractIndex } from '../../contract/index.js';
import { ajvFormats } from '../../contract/formats.js';
import { matchOf } from '../pipeline/context.js';
import { mediaTypeOf } from '../pipeline/context.js';
import { loadEngine, type ValidatorEngine, type ValidatorOptions } from './adapter.js';

/** Bodies larger than this are validated up to their first problem only (see contractValidator). */
export const ALL_ERRORS_MAX_BYTES = 16 * 1024;

/** Records the size of a parsed body (the `verify` option of the body parsers). */
export const recordBodySize = (req: IncomingMessage, _res: unknown, buf: Buffer) => {
  (req as IncomingMessage & { bodyBytes?: number }).bodyBytes = buf.length;
};

/** The validator's options, as production configures it; the equivalence test gives the stock middleware the same. */
export function validatorOptions(
  index: ContractIndex,
  config: Pick<Config, 'validateResponses'>,
  allErrors: boolean,
): ValidatorOptions {
  return {
    apiSpec: index.validatorSpec() as never,
    // The contract is held to OpenAPI 3.1 where it is built (Redocly's structural rules in `npm run
    // lint:spec`), not again by every process that starts: that check compiles the meta-schema (~0.1 s).
    validateApiSpec: false,
    validateRequests: { allErrors, allowUnknownQueryParameters: false },
    validateResponses: config.validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    validateFormats: true,
    ajvFormats: { mode: 'full' },
    formats: ajvFormats(),
    ignoreUndocumented: false,
    fileUploader: false,
  };
}

const engines = new Set<WeakRef<ValidatorEngine>>();
const loaded = new WeakMap<ContractIndex, Map<string, Promise<ValidatorEngine>>>();

/**
 * The engine for a contract index and these options, built once per process: building one (loading
 * the spec, ajv indexing every schema) costs ~0.3 s of CPU, and its validators, compiled per operation
 * on first use, depend on nothing else. Apps of one process (tests, the bench) share it.
 */
function engineFor(index: ContractIndex, config: Pick<Config, 'validateResponses'>, allErrors: boolean) {
  let byOptions = loaded.get(index);
  if (!byOptions) loaded.set(index, (byOptions = new Map()));
  const key = `${config.validateResponses}/${allErrors}`;
  let engine = byOptions.get(key);
  if (!engine) {
    engine = loadEngine(validatorOptions(index, config, allErrors));
    engine.then((built) => engines.add(new WeakRef(built))).catch(() => byOptions.delete(key));
    byOptions.set(key, engine);
  }
  return engine;
}

/** The validators built and kept by every contract validator of this process (the bounded-cache test reads it). */
export function cachedValidators(): number {
  let n = 0;
  for (const ref of engines) {
    const engine = ref.deref();
    if (engine) n += engine.cachedValidators();
    else engines.delete(ref);
  }
  return n;
}

/**
 * Requests are validated reporting every problem, except large bodies: reporting every unknown
 * key of a megabyte body would cost a second of CPU and a megabyte of answer, so those stop at
 * the first problem. That second engine is built on the first such body (about 0.3–0.5 s of CPU and
 * its share of memory that most processes never need). The Content-Type the validator sees is the
 * bare media type (media-type.ts; in the app only one the operation takes gets this far), or none when
 * the operation takes no body: its caches are keyed by that header, so they hold at most one entry
 * per operation and media type.
 */
export function contractValidator(index: ContractIndex, config: Pick<Config, 'validateResponses'>): RequestHandler {
  const allErrors = onFirstUse(() => engineFor(index, config, true));
  const firstError = onFirstUse(() => engineFor(index, config, false));
  allErrors.load().catch(() => undefined);

  const validate = (validator: ValidatorEngine, req: Request, res: Response, next: NextFunction) => {
    const match = matchOf(res);
    if (!match) return next();
    const mediaType = mediaTypeOf(res);
    if (mediaType) req.headers['content-type'] = mediaType;
    else delete req.headers['content-type'];
    validator.validate(match, req, res, next);
  };
  return (req, res, next) => {
    const large = ((req as Request & { bodyBytes?: number }).bodyBytes ?? 0) > ALL_ERRORS_MAX_BYTES;
    const engine = large ? firstError : allErrors;
    if (engine.ready) return validate(engine.ready, req, res, next);
    engine
      .load()
      .then((loaded) => validate(loaded, req, res, next))
      .catch(next);
  };
}

/** An engine loaded on the first `load()`; `ready` once it is. */
function onFirstUse(build: () => Promise<ValidatorEngine>) {
  let loading: Promise<ValidatorEngine> | undefined;
  const engine: { ready?: ValidatorEngine; load(): Promise<ValidatorEngine> } = {
    load: () =>
      (loading ??= build().then((built) => {
        engine.ready = built;
        return built;
      })),
  };
  return engine;
}
