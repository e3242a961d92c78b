// The request's Content-Type, parsed once (the `content-type` package) and checked against the
// media types the operation takes, before the body is read; a refusal names the ones to send (the
// validator's own 415 names neither). What passes is kept as the bare media type: the validator
// only ever sees that (validator.ts), so no header parameter can grow one of its caches.
import type { NextFunction, Request, Response } from 'express';
import { parse } from 'content-type';
import { operationOf } from './operation.js';
import { ApiError } from '../kit/errors.js';

const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** The bare media type the request was sent as (lower case), when its operation takes a body. */
export const mediaTypeOf = (res: Response): string | undefined => res.locals.mediaType as string | undefined;

/** Parses the Content-Type of a request whose operation takes a body, once, into its bare media type. */
export function readMediaType(req: Request, res: Response, next: NextFunction): void {
  const header = req.headers['content-type'];
  if (header && operationOf(res)?.mediaTypes.length)
    res.locals.mediaType = parse(header).type.toLowerCase() || undefined;
  next();
}

/** Refuses a media type the operation does not take (after readMediaType). */
export function checkMediaType() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const operation = operationOf(res);
    if (!operation || operation.mediaTypes.length === 0) return next();
    const sent = mediaTypeOf(res);
    if (!sent && !hasBody(req) && !operation.bodyRequired) return next();
    if (sent && operation.mediaTypes.includes(sent)) return next();
    const accepted = operation.mediaTypes.map((type) => `Content-Type: ${type}`).join(' or ');
    const shown = sent && sent.length > 100 ? `${sent.slice(0, 99)}…` : sent;
    const message = shown
      ? `This operation does not take ${shown}: send the body with ${accepted}`
      : `This operation needs a request body sent with ${accepted}`;
    next(new ApiError(sent ? 415 : 400, message, [message], {}, sent ? {} : { reason: 'missing_body' }));
  };
}
