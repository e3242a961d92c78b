// /mcp on the API server, driven by the official SDK's client over streamable HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestServer } from './support/server.js';
import { READ_SCOPES, assistantProbes, companyWithStatement, connected } from './support/mcp.js';

let server: TestServer;
let full: Client;
let readOnly: Client;

const over = (token: string) =>
  new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });

beforeAll(async () => {
  server = await startTestServer();
  full = await connected(over((await companyWithStatement(server)).token));
  readOnly = await connected(over((await companyWithStatement(server, READ_SCOPES)).token));
}, 120_000);
afterAll(async () => {
  await full?.close();
  await readOnly?.close();
  await server?.close();
});

describe('/mcp without a valid token', () => {
  it('when no token is sent, then 401 with WWW-Authenticate: Bearer and the error body', async () => {
    const res = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect(((await res.json()) as { message: string }).message).toMatch(/access token/);
  });

  it('when the token is unknown, then 401 invalid_token and the SDK client cannot connect', async () => {
    const res = await fetch(`${server.baseUrl}/mcp`, { method: 'POST', headers: { Authorization: 'Bearer nope' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    await expect(connected(over('nope'))).rejects.toThrow();
  });
});

describe('/mcp in production', () => {
  it('when MCP_ENDPOINT is off, then /mcp is an unknown path', async () => {
    const off = await startTestServer({ config: { mcpEndpoint: false } });
    try {
      const res = await fetch(`${off.baseUrl}/mcp`, { method: 'POST' });
      expect(res.status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('/mcp as an assistant uses it', () => {
  assistantProbes(
    () => full,
    () => readOnly,
  );
});
