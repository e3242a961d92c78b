// The start of every request, API or not, as one step: its id and trace (context.ts), the security
// headers, CORS for a browser's request, the URL length, and one observer that, once the answer is
// sent (or the client went away), writes the access line, records the metrics and tells the outage
// log whether the database was there.
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError } from '../../kit/errors.js';
import type { OutageLog } from '../../db/outage-log.js';
import { startContext } from './context.js';
import { assignRequestId } from './request-id.js';
import { startTrace } from './trace-context.js';
import { securityHeaders } from '../mechanisms/security-headers.js';
import { corsMiddleware } from '../mechanisms/cors.js';
import { accessLog } from './logger.js';
import type { AppMetrics } from '../ops/metrics.js';

/** Longer URLs are a 414 (Node itself answers 431 past 16 KB of headers, URL included). */
const MAX_URL_LENGTH = 8192;

interface PreludeOptions {
  baseUrl: string;
  corsOrigins: readonly string[];
  logger: Logger;
  metrics: AppMetrics;
  outage: OutageLog;
}

export function prelude({ baseUrl, corsOrigins, logger, metrics, outage }: PreludeOptions) {
  const headers = securityHeaders(baseUrl);
  const cors = corsMiddleware(corsOrigins);
  const log = accessLog(logger);
  const checkLength = (req: Request, next: NextFunction) =>
    next(
      req.originalUrl.length > MAX_URL_LENGTH
        ? new ApiError(414, `The request URL is longer than ${MAX_URL_LENGTH} characters`)
        : undefined,
    );
  return (req: Request, res: Response, next: NextFunction): void => {
    const context = startContext(res, assignRequestId(req, res), startTrace(req, res));
    for (const [name, value] of headers) res.setHeader(name, value);
    // A response emits `close` once, after `finish` when it was sent whole.
    res.once('close', () => {
      log(req, res, context);
      if (!res.writableFinished) return;
      metrics.record(req, res, context);
      if (context.dependencyFailure === 'database') outage.failed(context.dependencyError);
      else if (res.statusCode < 400 && context.match) outage.succeeded();
    });
    // Only a browser's request (it has an Origin) has CORS headers to get.
    if (req.headers.origin === undefined) return checkLength(req, next);
    cors(req, res, (err?: unknown) => (err ? next(err) : checkLength(req, next)));
  };
}
