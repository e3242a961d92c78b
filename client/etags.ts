// Conditional requests, opt-in (`createFinanceClient({ etags: true })`): the client keeps the `ETag`
// and body of each GET answer by URL, sends the tag back as `If-None-Match`, and on `304 Not
// Modified` hands the caller the kept body as a 200, so polling an unchanged list or item costs the
// server no page and the network no body. With `ifMatch`, a PATCH, PUT or DELETE of a URL whose
// answer is kept sends its tag as `If-Match`: the write applies only if nobody changed the item since
// it was read, else `412` (reason `precondition_failed`). A write or a 412 forgets the URL's answer.
import type { Middleware } from 'openapi-fetch';

export interface ETagOptions {
  /** Send the kept tag as `If-Match` on writes to the same URL; default false. */
  ifMatch?: boolean;
  /** How many answers to keep, the least recently used dropped first; default 500. */
  maxEntries?: number;
}

interface Kept {
  etag: string;
  body: ArrayBuffer;
  headers: [string, string][];
}

const WRITES = new Set(['PATCH', 'PUT', 'DELETE']);

export function etagMiddleware(options: ETagOptions = {}): Middleware {
  const max = options.maxEntries ?? 500;
  const kept = new Map<string, Kept>();
  const keep = (url: string, entry: Kept) => {
    kept.delete(url);
    kept.set(url, entry);
    if (kept.size > max) kept.delete(kept.keys().next().value!);
  };
  return {
    onRequest({ request }) {
      const entry = kept.get(request.url);
      if (!entry) return request;
      if (request.method === 'GET' && !request.headers.has('If-None-Match'))
        request.headers.set('If-None-Match', entry.etag);
      if (options.ifMatch && WRITES.has(request.method) && !request.headers.has('If-Match'))
        request.headers.set('If-Match', entry.etag);
      return request;
    },
    async onResponse({ request, response }) {
      if (request.method !== 'GET') {
        if (WRITES.has(request.method) && (response.ok || response.status === 412)) kept.delete(request.url);
        return response;
      }
      const entry = kept.get(request.url);
      if (response.status === 304 && entry) {
        keep(request.url, entry);
        const headers = new Headers(entry.headers);
        for (const name of ['X-Request-Id', 'RateLimit', 'RateLimit-Policy']) {
          const value = response.headers.get(name);
          if (value !== null) headers.set(name, value);
        }
        return new Response(entry.body, { status: 200, statusText: 'OK', headers });
      }
      const etag = response.headers.get('ETag');
      if (response.status === 200 && etag) {
        keep(request.url, { etag, body: await response.clone().arrayBuffer(), headers: [...response.headers] });
      } else if (response.status !== 304) {
        kept.delete(request.url);
      }
      return response;
    },
  };
}
