// Checks the request's Content-Type against the media types the operation takes, before the body
// is read, and names the ones to send (the validator's own 415 names neither).
import type { NextFunction, Request, Response } from 'express';
import { operationOf } from './operation.js';
import { ApiError } from './errors.js';

const hasBody = (req: Request) =>
  req.get('Transfer-Encoding') !== undefined || Number(req.get('Content-Length') ?? 0) > 0;

export function checkMediaType() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const operation = operationOf(res);
    if (!operation || operation.mediaTypes.length === 0) return next();
    const sent = req.get('Content-Type')?.split(';')[0]?.trim().toLowerCase();
    if (!sent && !hasBody(req) && !operation.bodyRequired) return next();
    if (sent && operation.mediaTypes.includes(sent)) return next();
    const accepted = operation.mediaTypes.map((type) => `Content-Type: ${type}`).join(' or ');
    const message = sent
      ? `This operation does not take ${sent}: send the body with ${accepted}`
      : `This operation needs a request body sent with ${accepted}`;
    next(new ApiError(sent ? 415 : 400, message, [message], {}, sent ? {} : { reason: 'missing_body' }));
  };
}
