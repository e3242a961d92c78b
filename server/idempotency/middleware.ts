// Idempotency-Key on every POST, PATCH, PUT and DELETE (after the IETF draft "The Idempotency-Key
// HTTP Header Field" and Stripe's practice): the step of every operation that declares the header
// (all writes but the token endpoint). Runs after authentication and contract validation, around
// the handler:
//  - the first response to a key (status, body and the headers below) is stored per company,
//    client and key for 24 hours and replayed with `Idempotent-Replayed: true`;
//  - the same key with another method, path or body is 422; while the first request runs, 409;
//  - requests refused before the handler (authentication, validation) never reach this, and a
//    5xx is not stored: a retry runs again.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Services } from '../kit/handler.js';
import type { ContractOperation } from '../contract/index.js';
import type { RequestContext, Step } from '../http/pipeline/context.js';
import { conflict, unprocessable } from '../kit/errors.js';
import { claimKey, completeKey, releaseKey, type KeyScope } from './store.js';
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
    if (claim.kind === 'running') {
      throw conflict(
        'A request with this Idempotency-Key is still being processed; retry shortly',
        ['Idempotency-Key: a request with this key is in progress'],
        { reason: 'idempotency_key_in_use', param: 'Idempotency-Key' },
      );
    }
    if (claim.kind === 'replay') {
      const { status, headers, body } = claim.response;
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(status).end(body);
      return;
    }

    // Claimed: capture the response, store it before it leaves (a retry then replays it).
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
      const [chunk, encoding] = args;
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
      const status = res.statusCode;
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      const store =
        status >= 500
          ? releaseKey(db, scope)
          : completeKey(db, config.secrets.idempotencyKey, scope, { status, headers, body: Buffer.concat(chunks) });
      store
        .catch((err: unknown) =>
          logger.error({ err, ...requestLogFields(res) }, 'could not store the idempotent response'),
        )
        .finally(() => end(...args));
      return res;
    }) as typeof res.end;
    res.once('close', () => {
      if (!settled) {
        settled = true;
        releaseKey(db, scope).catch((err: unknown) =>
          logger.error({ err, ...requestLogFields(res) }, 'could not release an idempotency key'),
        );
      }
    });
  }
}
