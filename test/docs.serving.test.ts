// The docs page is megabytes of text: it is sent compressed (brotli or gzip, as Accept-Encoding
// prefers), with an ETag and `Cache-Control: no-cache`, so a browser revalidates and gets a 304.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 180_000);
afterAll(async () => server?.close());

/** GET /docs with the given headers, the body's bytes as sent (not decoded). */
function getDocs(headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (done, fail) => {
      const req = request(`${server.baseUrl}/docs`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', fail);
      req.end();
    },
  );
}

describe('the docs page over HTTP', () => {
  it('when a browser accepts br, then the page comes brotli-compressed, tagged and revalidatable', async () => {
    const plain = await getDocs({ 'Accept-Encoding': 'identity' });
    const br = await getDocs({ 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.etag).toMatch(/^"[\w-]+-br"$/);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length * 4).toBeLessThan(plain.body.length);
  });

  it('when a client accepts only gzip, then it gets gzip', async () => {
    const plain = await getDocs({ 'Accept-Encoding': 'identity' });
    const gz = await getDocs({ 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
  });

  it('when a client accepts no encoding, then it gets the page as is, tagged', async () => {
    const plain = await getDocs({ 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(plain.body.toString('utf8')).toContain('id="try-it"');
  });

  it('when If-None-Match holds the page’s ETag, then 304 with no body; a stale tag gets the page', async () => {
    const first = await getDocs({ 'Accept-Encoding': 'br' });
    const again = await getDocs({ 'Accept-Encoding': 'br', 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    const stale = await getDocs({ 'Accept-Encoding': 'br', 'If-None-Match': '"stale"' });
    expect(stale.status).toBe(200);
  });
});
