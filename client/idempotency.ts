// Every write (POST, PATCH, PUT, DELETE) carries an `Idempotency-Key` unless the caller set one.
// It is set once per call, so the retries of a call share it: the server replays the first answer
// instead of doing the write twice, which makes every write safe to retry (see retry.ts).
import type { Middleware } from 'openapi-fetch';

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export const idempotencyKeyMiddleware: Middleware = {
  onRequest({ request }) {
    const path = new URL(request.url).pathname;
    if (WRITES.has(request.method) && !path.endsWith('/oauth/token') && !request.headers.has('Idempotency-Key')) {
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    }
    return request;
  },
};
