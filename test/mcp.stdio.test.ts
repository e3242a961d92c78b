// `finance mcp` on stdio: the built command spawned as an assistant would, driven by the official
// SDK's client, against a test server it reaches over HTTP with client credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestServer, type TestServer } from './support/server.js';
import { READ_SCOPES, assistantProbes, companyWithStatement, connected, type StatementCompany } from './support/mcp.js';

let server: TestServer;
let company: StatementCompany;
let full: Client;
let readOnly: Client;

const spawned = (company: { clientId: string; clientSecret: string }, extra: Record<string, string> = {}) =>
  new StdioClientTransport({
    command: process.execPath,
    args: ['bin/finance.js', 'mcp'],
    env: {
      PATH: process.env.PATH ?? '',
      FINANCE_BASE_URL: server.baseUrl,
      FINANCE_CLIENT_ID: company.clientId,
      FINANCE_CLIENT_SECRET: company.clientSecret,
      ...extra,
    },
    stderr: 'pipe',
  });

beforeAll(async () => {
  server = await startTestServer();
  company = await companyWithStatement(server);
  full = await connected(spawned(company));
  readOnly = await connected(spawned(await companyWithStatement(server, READ_SCOPES)));
}, 120_000);
afterAll(async () => {
  await full?.close();
  await readOnly?.close();
  await server?.close();
});

describe('finance mcp as an assistant uses it', () => {
  assistantProbes(
    () => server,
    () => company,
    () => full,
    () => readOnly,
  );
});

describe('finance mcp --tools', () => {
  it('when FINANCE_MCP_TOOLS adds the sandbox group and denies deletes, then its helpers are listed and no delete tool', async () => {
    const client = await connected(spawned(company, { FINANCE_MCP_TOOLS: 'sandbox,-delete_*' }));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('create_sandbox_banking_transaction');
      expect(names).not.toContain('reveal_vcn');
      expect(names.filter((n) => n.startsWith('delete_'))).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('when the credentials are wrong, then the command exits before serving, naming the token failure', async () => {
    const transport = spawned({ clientId: 'nobody', clientSecret: 'wrong' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await expect(connected(transport)).rejects.toThrow();
    expect(stderr).toMatch(/token request failed \(401\)/);
  }, 60_000);
});
