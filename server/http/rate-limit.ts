// Per-client request rate limit (the token endpoint and other unauthenticated calls: per address).
import type { Request, Response } from 'express';
import { rateLimit, ipKeyGenerator } from 'express-rate-limit';
import { ApiError } from './errors.js';

export function rateLimiter(perMinute: number) {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    skip: () => perMinute === 0,
    keyGenerator: (req: Request, res: Response) =>
      res.locals.auth ? `client:${(res.locals.auth as { clientId: string }).clientId}` : `ip:${ipKeyGenerator(req.ip ?? '')}`,
    handler: (_req, res, next) => {
      const retryAfter = String(res.getHeader('Retry-After') ?? '60');
      next(new ApiError(429, `Rate limit exceeded, retry in ${retryAfter} seconds`, [], { 'Retry-After': retryAfter }));
    },
  });
}
