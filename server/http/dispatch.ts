// Calls the handler of the validated request's operation (the one match, operation.ts) and writes its
// reply; a GET's `If-None-Match` is answered here (conditional.ts), before the handler when it can be.
import type { NextFunction, Request, Response } from 'express';
import type { HandlerContext, Services, StreamBody } from '../kit/handler.js';
import { operations } from '../operations.js';
import { requestIdOf } from './request-id.js';
import { matchOf } from './operation.js';
import type { ContractIndex } from '../contract/index.js';
import { checkIfMatch, itemReads } from './preconditions.js';
import { answeredNotModified, earlyTagOf, isConditionalRead, sentTag, versionedTag } from './conditional.js';

type AnyHandler = (
  input: unknown,
  ctx: HandlerContext,
) => Promise<{
  status: number;
  body?: unknown;
  raw?: Buffer | Uint8Array;
  contentType?: string;
  stream?: StreamBody;
  headers?: Record<string, string>;
}>;

export function dispatch(services: Services, index: ContractIndex) {
  const reads = itemReads(index);
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const match = matchOf(res);
    const handler = match
      ? (operations as unknown as Record<string, AnyHandler>)[match.operation.operationId]
      : undefined;
    if (!match || !handler) return next();
    try {
      const conditional = isConditionalRead(req, match.operation);
      const versioned = conditional
        ? (earlyTagOf(res) ?? (await versionedTag(services.db, match.operation.operationId, req, res.locals.auth)))
        : undefined;
      if (versioned !== undefined && answeredNotModified(req, res, versioned)) return;
      const ctx = { ...services, auth: res.locals.auth, requestId: requestIdOf(res), req, res };
      const read = reads.get(match.operation.operationId);
      if (read) {
        const readHandler = (operations as unknown as Record<string, AnyHandler>)[read.operationId]!;
        await checkIfMatch(req, () => readHandler({ params: match.params, query: {}, body: undefined }, ctx));
      }
      const reply = await handler({ params: match.params, query: req.query, body: req.body }, ctx);
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      if (conditional && reply.status === 200) {
        const tag = versioned ?? sentTag(reply);
        if (tag !== undefined && answeredNotModified(req, res, tag, true)) return;
      }
      res.status(reply.status);
      if (reply.stream !== undefined) {
        res.type(reply.contentType ?? 'application/octet-stream');
        await reply.stream(res);
      } else if (reply.raw !== undefined) {
        res.type(reply.contentType ?? 'application/octet-stream').send(Buffer.from(reply.raw));
      } else if (reply.body === undefined) {
        res.end();
      } else {
        res.json(reply.body);
      }
    } catch (err) {
      next(err);
    }
  };
}
