// What Node answers before Express, request size limits, security headers and upload URLs
// checked before their body is read.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageContentSecurityPolicy } from '../server/http/mechanisms/security-headers.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import { openSocket, rawRequest, readReply } from './support/raw-http.js';
import { createAccount, createBankingTransaction } from './support/factories/statements.js';

let server: TestServer;
let acme: TestCompany;

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
});
afterAll(async () => server.close());

const auth = () => ({ Authorization: `Bearer ${acme.token}` });

function expectCommonBody(body: unknown, status: number) {
  expect(body).toMatchObject({ code: status, requestId: expect.stringMatching(/^req_/), details: expect.any(Array) });
  expect(typeof (body as { message: unknown }).message).toBe('string');
}

describe('errors Node answers before Express', () => {
  it('when the query is 40 KB, then 431 with the JSON error body and Connection: close', async () => {
    const res = await fetch(`${server.baseUrl}/statements/v1/banking?x=${'a'.repeat(40_000)}`, { headers: auth() });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await res.json();
    expectCommonBody(body, 431);
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('when the URL is longer than 8 KB but the headers fit, then 414 in the error body', async () => {
    const res = await fetch(`${server.baseUrl}/statements/v1/banking?x=${'a'.repeat(9_000)}`, { headers: auth() });
    expect(res.status).toBe(414);
    expectCommonBody(await res.json(), 414);
  });

  it('when the request line is not HTTP, then 400 in the error body and the connection closes', async () => {
    const reply = await rawRequest(server.baseUrl, 'GARBAGE \x01\x02 nonsense\r\n\r\n');
    expect(reply.status).toBe(400);
    expect(reply.headers.connection).toBe('close');
    expect(reply.closed).toBe(true);
    expectCommonBody(JSON.parse(reply.body), 400);
  });
});

describe('request bodies', () => {
  const post = (body: string) =>
    fetch(`${server.baseUrl}/cost-centers/v1/cost-centers`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body,
    });

  it('when a body holds 1 MB of unknown keys, then 400 in the error body, smaller than 16 KB', async () => {
    const keys: string[] = [];
    for (let i = 0, size = 0; size < 1_000_000; i++, size += 12) keys.push(`"k${i}":1`);
    const res = await post(`{${keys.join(',')}}`);
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text.length).toBeLessThan(16 * 1024);
    expectCommonBody(JSON.parse(text), 400);
  });

  it('when a small body has 60 unknown keys, then at most 20 problems are listed, and how many more', async () => {
    const body = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`unknown${i}`, i]));
    const res = await post(JSON.stringify({ name: 'Ops', ...body }));
    expect(res.status).toBe(400);
    const { details } = (await res.json()) as { details: string[] };
    expect(details.length).toBe(21);
    expect(details[20]).toMatch(/and \d+ more problems/);
  });

  it('when an unknown key is 10,000 characters long, then each problem stays short', async () => {
    const res = await post(JSON.stringify({ name: 'Ops', ['x'.repeat(10_000)]: 1 }));
    expect(res.status).toBe(400);
    expect((await res.text()).length).toBeLessThan(4_000);
  });

  it('when a body is nested 10,000 levels deep, then 400', async () => {
    const res = await post(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(res.status).toBe(400);
    expectCommonBody(await res.json(), 400);
  });
});

describe('security headers', () => {
  it('when an authenticated JSON response is sent, then nosniff, private no-cache with its ETag, a deny-all CSP and no framing', async () => {
    const res = await fetch(`${server.baseUrl}/statements/v1/banking?limit=1`, { headers: auth() });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // no-store, except where an ETag lets the caller revalidate (DESIGN §11).
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('etag')).toMatch(/^W\/".+"$/);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('when an error is answered, then it carries the same headers', async () => {
    const res = await fetch(`${server.baseUrl}/statements/v1/banking`);
    expect(res.status).toBe(401);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('when PUBLIC_BASE_URL is https, then HSTS is sent', async () => {
    const https = await startTestServer({ config: { baseUrl: 'https://finance.example.com' } });
    try {
      const res = await fetch(`${https.baseUrl}/health`);
      expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=31536000/);
    } finally {
      await https.close();
    }
  });

  it('when the docs page is served, then its CSP allows exactly its inline scripts by hash and no framing', () => {
    const scripts = ['console.log(1)', 'window.x = "<b>"'];
    const csp = pageContentSecurityPolicy(
      `<html><style>b{}</style><script>${scripts[0]}</script><script type="module">${scripts[1]}</script><script src="/ext.js"></script></html>`,
    );
    const hashes = scripts.map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`);
    expect(csp).toContain(`script-src ${hashes.join(' ')};`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/unsafe-eval|https?:/);
  });
});

describe('signed upload URLs', () => {
  it('when a made-up upload URL announces 10 MiB, then 403 before any byte of the body is sent, and the connection closes', async () => {
    const socket = await openSocket(server.baseUrl);
    const reply = await readReply(
      socket,
      [
        'PUT /attachments/v1/uploads/eyJhIjoiMDEifQ.bm90LWEtc2lnbmF0dXJl HTTP/1.1',
        `Host: ${new URL(server.baseUrl).host}`,
        'Content-Type: application/pdf',
        `Content-Length: ${10 * 1024 * 1024}`,
        '',
        '',
      ].join('\r\n'),
    );
    expect(reply.status).toBe(403);
    expect(reply.headers.connection).toBe('close');
    expect(reply.closed).toBe(true);
    expectCommonBody(JSON.parse(reply.body), 403);
  });

  it('when an upload URL was used, then a second upload is 409 before its body is read', async () => {
    const bankingId = await createBankingTransaction(
      server.db,
      acme.companyId,
      await createAccount(server.db, acme.companyId),
    );
    const { data } = await acme.api.POST('/attachments/v1', {
      body: { transactionId: String(bankingId), statement: 'banking', name: 'a.pdf', type: 'application/pdf' },
    });
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    const first = await fetch(data!.uploadUrl, {
      method: 'PUT',
      body: new Uint8Array(pdf),
      headers: { 'Content-Type': 'application/pdf' },
    });
    expect(first.status).toBe(200);
    const path = new URL(data!.uploadUrl).pathname;
    const reply = await rawRequest(
      server.baseUrl,
      `PUT ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nContent-Length: 5000000\r\n\r\n`,
    );
    expect(reply.status).toBe(409);
    expect(reply.closed).toBe(true);

    const served = await fetch(`${server.baseUrl}/attachments/v1/content/${data!.id}`, { headers: auth() });
    expect(served.status).toBe(200);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(served.headers.get('content-security-policy')).toMatch(/sandbox/);
    expect(served.headers.get('cache-control')).toContain('no-store');
  });
});
