// The served contract and docs name the server they are served from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';

type Served = {
  servers: Array<{ url: string; description: string }>;
  components: { securitySchemes: { OAuth2: { flows: { clientCredentials: { tokenUrl: string } } } } };
};

let sandbox: TestServer;
let deployed: TestServer;

beforeAll(async () => {
  sandbox = await startTestServer();
  deployed = await startTestServer({ config: { publicBaseUrl: 'https://api.acme.example', production: true } });
});
afterAll(async () => Promise.all([sandbox.close(), deployed.close()]));

describe('GET /openapi.json', () => {
  it('when the sandbox runs on another port, then servers and tokenUrl name that port', async () => {
    const contract = (await (await fetch(`${sandbox.baseUrl}/openapi.json`)).json()) as Served;
    expect(contract.servers[0]!.url).toBe(sandbox.baseUrl);
    expect(contract.components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl).toBe(
      `${sandbox.baseUrl}/oauth/token`,
    );
    expect(JSON.stringify(contract)).not.toContain('localhost:8080');
    expect(contract.servers[0]!.description).not.toContain('`');
  });

  it('when asked with Accept-Encoding, then it comes compressed with an ETag, cacheable, and 304 on that tag', async () => {
    const first = await fetch(`${sandbox.baseUrl}/openapi.json`, { headers: { 'Accept-Encoding': 'br' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-encoding')).toBe('br');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+-br"$/);
    expect(((await first.json()) as Served).servers[0]!.url).toBe(sandbox.baseUrl);
    const again = await fetch(`${sandbox.baseUrl}/openapi.json`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });

  it('when PUBLIC_BASE_URL is set, then it is named whatever host the request used', async () => {
    const contract = (await (await fetch(`${deployed.baseUrl}/openapi.json`)).json()) as Served;
    expect(contract.servers[0]!.url).toBe('https://api.acme.example');
    expect(contract.components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl).toBe(
      'https://api.acme.example/oauth/token',
    );
  });
});
