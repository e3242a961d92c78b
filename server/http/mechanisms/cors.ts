// CORS, so browser applications on the allowed origins can call the API. Preflights are answered
// here, before authentication: a browser never sends credentials on an OPTIONS preflight.
import cors from 'cors';

/** Request headers a browser may send. */
const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'X-Request-Id',
  'Idempotency-Key',
  'If-None-Match',
  'If-Match',
];
/** Response headers a browser application may read. */
const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Location',
  'WWW-Authenticate',
  'Content-Disposition',
  'ETag',
];
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Whether `origin` matches one of `allowed` (`scheme://host:*` matches every port of that host). */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    if (entry === '*') return true;
    if (!entry.endsWith(':*')) return entry === origin;
    const prefix = entry.slice(0, -1); // "http://localhost:"
    if (origin === prefix.slice(0, -1)) return true; // the default port
    return origin.startsWith(prefix) && /^\d{1,5}$/.test(origin.slice(prefix.length));
  });
}

export function corsMiddleware(allowed: readonly string[]) {
  return cors({
    origin: (origin, callback) => callback(null, origin !== undefined && originAllowed(origin, allowed)),
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });
}
