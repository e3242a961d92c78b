// Per-client request rate limit (the token endpoint and other unauthenticated calls: per address),
// counted in one place for every worker and replica when a shared store is given.
import { rateLimit, ipKeyGenerator, type Store } from 'express-rate-limit';
import { ApiError } from '../../kit/errors.js';
import { contextOf, type Step } from '../pipeline/context.js';

/**
 * The rate limit step, one for every operation. `store`: shared counters
 * (server/http/ops/rate-limit-store.ts); memory when not given. `perMinute` 0 (no limit): no step at all.
 */
export function rateLimitStep(perMinute: number, store?: Store): Step | undefined {
  if (perMinute <= 0) return undefined;
  const limiter = rateLimit({
    ...(store ? { store } : {}),
    windowMs: 60_000,
    limit: perMinute,
    // draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy: "default"; q=600; w=60; pk=:…:` and
    // `RateLimit: "default"; r=599; t=42` on every answer that counts; `Retry-After` on 429.
    standardHeaders: 'draft-8',
    identifier: 'default',
    legacyHeaders: false,
    keyGenerator: (req, res) => {
      const auth = contextOf(res).auth;
      return auth ? `client:${auth.clientId}` : `ip:${ipKeyGenerator(req.ip ?? '')}`;
    },
    handler: (_req, res, next) => {
      contextOf(res).rateLimited = true;
      const retryAfter = String(res.getHeader('Retry-After') ?? '60');
      next(new ApiError(429, `Rate limit exceeded, retry in ${retryAfter} seconds`, [], { 'Retry-After': retryAfter }));
    },
  });
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      void limiter(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
    });
}
