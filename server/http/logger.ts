// Structured JSON logs: one line per request with request id, method, route, status and duration.
// Credentials and card data never reach a log line.
import { pino, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Request, Response } from 'express';

export const REDACT = [
  'req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]',
  '*.access_token', '*.client_secret', '*.clientSecret', '*.pan', '*.cvv', '*.card', 'card.pan', 'card.cvv',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } }, destination as never);
}

export function httpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => String((res as unknown as Response).locals?.requestId ?? ''),
    customProps: (req) => ({ route: (req as unknown as Request & { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute }),
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
  });
}
