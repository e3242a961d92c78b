// Security headers on every response (helmet): nosniff, no framing, a deny-all CSP for the API,
// HSTS when the public base URL is https, and `Cache-Control: no-store` unless a route says
// otherwise. The docs page gets a CSP that allows exactly the inline scripts it holds.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import helmet from 'helmet';

/** The headers every answer carries (helmet's, taken once), in order. */
export function securityHeaders(baseUrl: string): ReadonlyArray<readonly [string, string]> {
  const https = baseUrl.startsWith('https:');
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    // API responses are read by fetch (CORS), never embedded; the default `same-origin` would
    // keep browsers of other origins from loading even allowed resources.
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  // helmet's headers here depend on nothing in the request: they are taken from it once and set
  // on each response by the prelude in one loop (helmet is a dozen middlewares, one per header).
  const fixed: Array<[string, string]> = [['Cache-Control', 'no-store']];
  let complete = false;
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => fixed.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  headers({ headers: {} } as Request, collector as unknown as Response, () => {
    complete = true;
  });
  if (!complete) throw new Error('helmet did not set its headers synchronously');
  return fixed;
}

/** The docs CSP for a page's HTML as served (its inline scripts by hash). */
export function pageContentSecurityPolicy(html: string): string {
  const hashes = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`,
  );
  const value = [
    "default-src 'none'",
    `script-src ${[...new Set(hashes)].join(' ') || "'none'"}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    'worker-src blob:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return value;
}
