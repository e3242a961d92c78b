// Idempotency-Key on every POST, PATCH, PUT and DELETE (after the IETF draft "The Idempotency-Key
// HTTP Header Field" and Stripe's practice): the step of every operation that declares the header
// (all writes but the token endpoint). Runs after authentication and contract validation, around
// the handler:
//  - the key is claimed before the handler runs, with a lease the request renews while it runs;
//  - each write transaction of the handler records, in that same transaction, that it committed and
//    what it returned (store.ts `recordOutcome`): a write that committed is never made again with
//    this key, whatever became of the connection or the process;
//  - the first response to a key (status, body and the headers below) is stored per company,
//    client and key for 24 hours and replayed with `Idempotent-Replayed: true`, whether or not the
//    client was still there to read it (a client that left does not free the key);
//  - the same key with another method, path or body is 422; while another attempt holds the key,
//    409 with Retry-After;
//  - requests refused before the handler (authentication, validation) never reach this. A 5xx, or
//    an answer with Retry-After (retry later), is not stored: if no write of it committed, a retry
//    runs afresh; if one did, a retry runs the handler again with each committed write answered
//    from its recorded outcome instead of being made again, and its answer is stored. A process that dies mid-request leaves its lease to run out
//    (LEASE_MS), after which a retry does the same.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Services } from '../kit/handler.js';
import type { ContractOperation } from '../contract/index.js';
import type { RequestContext, Step } from '../http/pipeline/context.js';
import { ApiError, unprocessable } from '../kit/errors.js';
import type { WriteGuard } from '../db/transaction.js';
import type { Db } from '../db/database.js';
import {
  abandonKey,
  claimKey,
  ClaimLostError,
  completeKey,
  LEASE_MS,
  recordOutcome,
  renewKey,
  type HeldClaim,
  type KeyScope,
  UNRECORDABLE,
} from './store.js';
import { requestLogFields } from '../http/pipeline/trace-context.js';

/** Headers of the first response that a replay repeats. */
const REPLAYED_HEADERS = [
  'content-type',
  'location',
  'content-location',
  'etag',
  'last-modified',
  'cache-control',
  'link',
];
/** Printable ASCII, 1 to 255 characters (the contract's pattern). */
const IDEMPOTENCY_KEY = /^[\x20-\x7E]{1,255}$/;
function fingerprintOf(req: Request, rawBody: Buffer | undefined): string {
  const raw = rawBody ?? (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
  return createHash('sha256')
    .update(req.method)
    .update('\n')
    .update(req.originalUrl)
    .update('\n')
    .update(raw)
    .digest('hex');
}

const toBuffer = (chunk: unknown, encoding?: unknown): Buffer =>
  Buffer.isBuffer(chunk)
    ? chunk
    : chunk instanceof Uint8Array
      ? Buffer.from(chunk)
      : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');

/** A request that lost its client keeps its lease this long at most, for its handler to end. */
const MAX_HOLD_MS = 15 * 60_000;

/**
 * 409 while another attempt holds the key. Retry-After is one second, not the lease's remainder: an
 * attempt that runs usually ends within it, and one whose process died frees the key within the lease.
 */
const inUse = () => {
  const seconds = 1;
  return new ApiError(
    409,
    'A request with this Idempotency-Key is still being processed; retry shortly',
    ['Idempotency-Key: a request with this key is in progress', `Retry-After: ${seconds}`],
    { 'Retry-After': String(seconds) },
    { reason: 'idempotency_key_in_use', param: 'Idempotency-Key' },
  );
};

const appliedBefore = () =>
  new ApiError(
    409,
    'The first request with this Idempotency-Key was applied, but its answer could not be recovered; read the resource to see it',
    ['Idempotency-Key: the request was applied by an earlier attempt'],
    {},
    { reason: 'conflict', param: 'Idempotency-Key' },
  );

/**
 * The guard of a claimed key around each of the handler's write transactions: a write an earlier
 * attempt committed is answered from its recorded outcome (in order); any other records its own in
 * its transaction, or rolls back if the claim was taken over meanwhile (409).
 */
function outcomeGuard(keys: readonly Buffer[], scope: KeyScope, claim: HeldClaim): WriteGuard {
  let answered = 0;
  return {
    async around(trx, work) {
      if (answered < claim.outcome.length) {
        const recorded = claim.outcome[answered++];
        // Committed, but what it returned could not be kept: the truth is all there is to answer.
        if (recorded === UNRECORDABLE) throw appliedBefore();
        return recorded as Awaited<ReturnType<typeof work>>;
      }
      const value = await work();
      try {
        await recordOutcome(trx as unknown as Db, keys, scope, claim.owner, value);
      } catch (err) {
        if (err instanceof ClaimLostError) throw inUse();
        throw err;
      }
      return value;
    },
  };
}

export function idempotency(
  operation: ContractOperation,
  { db, clock, config }: Services,
  logger: Logger,
): Step | undefined {
  if (!(operation.paramNames.header ?? []).includes('Idempotency-Key')) return undefined;
  // A request without a key goes on at once (the chain awaits only a step that returns a promise).
  return (req, res, context) => {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) return;
    return keyed(req, res, context, key);
  };

  async function keyed(req: Request, res: Response, context: RequestContext, key: string): Promise<void> {
    const auth = context.auth;
    // Operations without a token (a signed upload URL) are keyed by the URL itself, inside the fingerprint.
    const scope: KeyScope = { companyId: auth?.companyId ?? '-', clientId: auth?.clientId ?? '-', key };
    // Responses stored before the idempotency key existed were sealed with the card key, and during a
    // rotation with the previous key; they expire within KEY_TTL_MS and still open meanwhile.
    const { idempotencyKey, idempotencyKeyPrevious, panKey } = config.secrets;
    const keys = idempotencyKeyPrevious ? [idempotencyKey, idempotencyKeyPrevious, panKey] : [idempotencyKey, panKey];

    const claim = await claimKey(db, keys, scope, fingerprintOf(req, context.rawBody), clock.now());
    if (claim.kind === 'mismatch') {
      throw unprocessable(
        'This Idempotency-Key was already used for another request (method, path or body); use a new key',
        ['Idempotency-Key: already used for another request'],
        { reason: 'idempotency_key_reused', param: 'Idempotency-Key' },
      );
    }
    if (claim.kind === 'running') throw inUse();
    if (claim.kind === 'replay') {
      const { status, headers, body } = claim.response;
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(status).end(body);
      return;
    }

    // Claimed: the handler's writes record their outcome on the key; its answer is stored before it leaves.
    const owner = claim.owner;
    (context.writeGuards ??= []).push(outcomeGuard(keys, scope, claim));
    // The item's If-Match was checked by the attempt whose write committed; it no longer holds now.
    if (claim.outcome.length > 0) context.recoveringWrites = true;
    const failed = (what: string) => (err: unknown) => logger.error({ err, ...requestLogFields(res) }, what);
    const heldSince = Date.now();
    const lease = setInterval(() => {
      if (Date.now() - heldSince > MAX_HOLD_MS) return clearInterval(lease);
      renewKey(db, scope, owner, clock.now())
        .then((held) => held || clearInterval(lease))
        .catch(failed('could not renew an idempotency key'));
    }, LEASE_MS / 3);
    lease.unref();

    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let settled = false;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk, rest[0]));
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      if (settled) return end(...args);
      settled = true;
      clearInterval(lease);
      const [chunk, encoding] = args;
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
      const status = res.statusCode;
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      // The answer leaves only once it is stored: a retry that follows it finds it. An answer that
      // says to retry later (a 5xx, a 409 or 429 with Retry-After: another attempt still holds what
      // this one needs) is not the request's answer: the retry runs again.
      const store =
        status >= 500 || res.getHeader('retry-after') !== undefined
          ? abandonKey(db, scope, owner, clock.now())
          : completeKey(db, idempotencyKey, scope, owner, { status, headers, body: Buffer.concat(chunks) });
      store.catch(failed('could not store the idempotent response')).finally(() => end(...args));
      return res;
    }) as typeof res.end;
    // A client that leaves frees nothing: the handler goes on, and its answer is stored when it ends.
  }
}
