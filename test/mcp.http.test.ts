// /mcp on the API server, driven by the official SDK's client over streamable HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { checkResourceAllowed } from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import { startTestServer, type TestServer } from './support/server.js';
import { freshDatabase } from './support/database.js';
import { DatabaseRateLimitStore } from '../server/http/ops/rate-limit-store.js';
import { openStore } from '../server/db/store.js';
import { ManualClock } from '../server/lib/clock.js';
import { READ_SCOPES, assistantProbes, companyWithStatement, connected, type StatementCompany } from './support/mcp.js';

let server: TestServer;
let company: StatementCompany;
let full: Client;
let readOnly: Client;

const over = (token: string, query = '') =>
  new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp${query}`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });

/** One JSON-RPC message posted as a client would, with any extra headers. */
const post = (base: string, headers: Record<string, string> = {}, method = 'POST') =>
  fetch(`${base}/mcp`, {
    method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) } : {}),
  });

beforeAll(async () => {
  server = await startTestServer();
  company = await companyWithStatement(server);
  full = await connected(over(company.token));
  readOnly = await connected(over((await companyWithStatement(server, READ_SCOPES)).token));
}, 120_000);
afterAll(async () => {
  await full?.close();
  await readOnly?.close();
  await server?.close();
});

describe('/mcp without a valid token', () => {
  it('when no token is sent, then 401 whose challenge names the resource metadata and the scopes of the default tools, as the SDK reads it', async () => {
    const res = await post(server.baseUrl);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toMatch(/access token/);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="finance", /);
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(res);
    expect(String(resourceMetadataUrl)).toBe(`${server.baseUrl}/.well-known/oauth-protected-resource`);
    expect(scope?.split(' ').sort()).toEqual([
      'cards:read',
      'cards:write',
      'directory:read',
      'statements:read',
      'statements:write',
      'users:read',
      'users:write',
    ]);
    // The SDK asks for a token for the metadata's resource when it covers the URL it connects to.
    const metadata = (await (await fetch(String(resourceMetadataUrl))).json()) as { resource: string };
    expect(
      checkResourceAllowed({ requestedResource: `${server.baseUrl}/mcp`, configuredResource: metadata.resource }),
    ).toBe(true);
  });

  it('when the token is unknown, then 401 invalid_token and the SDK client cannot connect', async () => {
    const res = await post(server.baseUrl, { Authorization: 'Bearer nope' });
    expect(res.status).toBe(401);
    expect(extractWWWAuthenticateParams(res).error).toBe('invalid_token');
    await expect(connected(over('nope'))).rejects.toThrow();
  });
});

describe('/mcp and where requests come from', () => {
  it('when a browser page of a foreign origin posts, then 403; an allowed origin and no origin are served', async () => {
    const auth = { Authorization: `Bearer ${company.token}` };
    const foreign = await post(server.baseUrl, { ...auth, Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { reason: string }).reason).toBe('forbidden');
    expect((await post(server.baseUrl, { ...auth, Origin: 'http://localhost:6274' })).status).toBe(200);
    expect((await post(server.baseUrl, auth)).status).toBe(200);
  });

  it('when a client GETs or DELETEs /mcp, then 405 with Allow: POST (no stream is held open)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await post(server.baseUrl, { Authorization: `Bearer ${company.token}` }, method);
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});

describe('/mcp groups of tools', () => {
  it('when ?tools= names groups, then their tools are listed besides the default set; all stays hidden tools apart', async () => {
    const client = await connected(over(company.token, '?tools=webhooks,cards,-delete_*'));
    const everything = await connected(over(company.token, '?tools=all'));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['list_cards', 'update_webhook_endpoint', 'create_vcn']));
      expect(names.filter((n) => n.startsWith('delete_') || n === 'reveal_vcn')).toEqual([]);
      const all = (await everything.listTools()).tools.map((t) => t.name);
      expect(all).toEqual(expect.arrayContaining(['create_cost_center', 'list_audit_entries', 'list_events']));
      expect(all.filter((n) => ['reveal_vcn', 'create_webhook_endpoint', 'create_approval_code'].includes(n))).toEqual(
        [],
      );
    } finally {
      await client.close();
      await everything.close();
    }
  });
});

describe('/mcp limits', () => {
  it('when a client posts more than RATE_LIMIT_PER_MINUTE messages, then 429 with Retry-After, counted in the shared store beside its API requests', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-limits-'));
    const dbPath = await freshDatabase(dir);
    const counters = await openStore(dbPath);
    const clock = new ManualClock();
    const limited = await startTestServer({
      dbPath,
      clock,
      config: { rateLimitPerMinute: 2 },
      rateLimitStore: new DatabaseRateLimitStore(counters.db, clock),
    });
    try {
      const { token, api } = await limited.newCompany();
      const auth = { Authorization: `Bearer ${token}` };
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await post(limited.baseUrl, auth)).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect((await post(limited.baseUrl, auth)).headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await api.GET('/cost-centers/v1/cost-centers')).response.status).toBe(200);
    } finally {
      await limited.close();
      await counters.db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

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
    () => server,
    () => company,
    () => full,
    () => readOnly,
  );
});
