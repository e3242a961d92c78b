// Per-client request rate limit (the token endpoint and other unauthenticated calls: per address),
// counted in one place for every worker and replica when a shared store is given.
import type { Request, Response } from 'express';
import { rateLimit, ipKeyGenerator, type Store } from 'express-rate-limit';
import { ApiError } from '../kit/errors.js';

/** `store`: shared counters (server/http/rate-limit-store.ts); memory when not given. `perMinute` 0 (no limit) is not mounted at all. */
export function rateLimiter(perMinute: number, store?: Store) {
  return rateLimit({
    ...(store ? { store } : {}),
    windowMs: 60_000,
    limit: perMinute,
    // draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "default"; q=600; w=60; pk=:…:` and
    // `RateLimit: "default"; r=599; t=42` on every answer that counts; `Retry-After` on 429.
    standardHeaders: 'draft-8',
    identifier: 'default',
    legacyHeaders: false,
    keyGenerator: (req: Request, res: Response) =>
      res.locals.auth
        ? `client:${(res.locals.auth as { clientId: string }).clientId}`
        : `ip:${ipKeyGenerator(req.ip ?? '')}`,
    handler: (_req, res, next) => {
      res.locals.rateLimited = true;
      const retryAfter = String(res.getHeader('Retry-After') ?? '60');
      next(new ApiError(429, `Rate limit exceeded, retry in ${retryAfter} seconds`, [], { 'Retry-After': retryAfter }));
    },
  });
}
