// Every call carries an `X-Request-Id` (a UUID unless the caller set one). It is set once per call,
// so the retries of a call share it and the server's logs tie them together; the server echoes it
// in the response header and in every error body (`requestId`).
import type { Middleware } from 'openapi-fetch';

/** A random UUID v4; `crypto.randomUUID` is missing in browsers' insecure contexts (plain http). */
function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const requestIdMiddleware: Middleware = {
  onRequest({ request }) {
    if (!request.headers.has('X-Request-Id')) request.headers.set('X-Request-Id', uuid());
    return request;
  },
};
