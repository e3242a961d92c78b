// The request's Content-Type, parsed once (the `content-type` package) and checked against the
// media types the operation takes, before the body is read; a refusal names the ones to send (the
// validator's own 415 names neither). What passes is kept as the bare media type: the validator
// only ever sees that (validator.ts), so no header parameter can grow one of its caches.
import type { Request } from 'express';
import { parse } from 'content-type';
import type { ContractOperation } from '../../contract/index.js';
import type { Step } from '../pipeline/context.js';
import { ApiError } from '../../kit/errors.js';

/** Does the request carry a body (a length above 0, or chunked)? */
const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * The operation's media-type step: parses the Content-Type once into its bare media type (kept in the
 * context) and refuses one the operation does not take; none for an operation that takes no body.
 */
export function mediaTypeCheck(operation: ContractOperation): Step | undefined {
  if (operation.mediaTypes.length === 0) return undefined;
  const accepted = operation.mediaTypes.map((type) => `Content-Type: ${type}`).join(' or ');
  return (req, _res, context) => {
    const header = req.headers['content-type'];
    const sent = header ? parse(header).type.toLowerCase() || undefined : undefined;
    context.mediaType = sent;
    if (!sent && !hasBody(req) && !operation.bodyRequired) return;
    if (sent && operation.mediaTypes.includes(sent)) return;
    const shown = sent && sent.length > 100 ? `${sent.slice(0, 99)}…` : sent;
    const message = shown
      ? `This operation does not take ${shown}: send the body with ${accepted}`
      : `This operation needs a request body sent with ${accepted}`;
    throw new ApiError(sent ? 415 : 400, message, [message], {}, sent ? {} : { reason: 'missing_body' });
  };
}
