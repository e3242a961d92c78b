// What the MCP tests share: a company with a statement to read, clients of the official SDK over
// either transport, and the probes an assistant's session makes (the same on stdio and HTTP).
import { expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestServer } from './server.js';
import { createAccount, createBankingTransactions } from './factories/statements.js';

export const READ_SCOPES = [
  'statements:read',
  'directory:read',
  'users:read',
  'vcn:read',
  'events:read',
  'webhooks:read',
];

/** A company with seven banking transactions; its client id and secret. */
export async function companyWithStatement(server: TestServer, scopes?: readonly string[]) {
  const company = await server.newCompany(scopes ? { scopes } : {});
  const account = await createAccount(server.db, company.companyId);
  await createBankingTransactions(
    server.db,
    company.companyId,
    account,
    Array.from({ length: 7 }, (_, i) => ({ description: `Purchase ${i + 1}` })),
  );
  return company;
}

export async function connected(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'finance-test-assistant', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/**
 * The session an assistant has: `client()` is the SDK client with full credentials, `readOnly()`
 * one with read scopes only (each connected once and closed by the caller's afterAll).
 */
export function assistantProbes(client: () => Client, readOnly: () => Client): void {
  it('when the tools are listed, then at least 30 with object input schemas and descriptions, and no sandbox or reveal tool', async () => {
    const { tools } = await client().listTools();
    expect(tools.length).toBeGreaterThanOrEqual(30);
    const names = tools.map((t) => t.name);
    for (const name of [
      'list_banking_transactions',
      'reconcile_banking_transaction',
      'list_cost_centers',
      'create_cost_center',
      'list_credit_card_transactions',
    ])
      expect(names).toContain(name);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(10);
    }
    expect(names.filter((n) => n.includes('sandbox') || n.includes('reveal'))).toEqual([]);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('list_banking_transactions')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('delete_cost_center')?.annotations?.destructiveHint).toBe(true);
    expect(byName.get('reconcile_banking_transaction')?.annotations?.readOnlyHint).toBe(false);
  });

  it('when list_banking_transactions is called with limit 5, then five transactions come as structured content', async () => {
    const result = (await client().callTool({
      name: 'list_banking_transactions',
      arguments: { limit: 5 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const page = result.structuredContent as { transactions: unknown[]; nextPageStartKey?: string };
    expect(page.transactions).toHaveLength(5);
    expect(page.nextPageStartKey).toEqual(expect.any(String));
    const rest = (await client().callTool({
      name: 'list_banking_transactions',
      arguments: { limit: 5, nextPageStartKey: page.nextPageStartKey },
    })) as CallToolResult;
    expect((rest.structuredContent as { transactions: unknown[] }).transactions).toHaveLength(2);
  });

  it('when create_cost_center is called, then the list tool shows it, and the same call again writes nothing more', async () => {
    const name = `Field sales ${Math.random().toString(36).slice(2, 8)}`;
    const created = (await client().callTool({ name: 'create_cost_center', arguments: { name } })) as CallToolResult;
    expect(created.isError).toBeFalsy();
    const { id } = created.structuredContent as { id: string };
    const again = (await client().callTool({ name: 'create_cost_center', arguments: { name } })) as CallToolResult;
    expect((again.structuredContent as { id: string }).id).toBe(id);
    const list = (await client().callTool({ name: 'list_cost_centers', arguments: {} })) as CallToolResult;
    const found = (list.structuredContent as { items: { id: string; name: string }[] }).items;
    expect(found.filter((c) => c.name === name).map((c) => c.id)).toEqual([id]);
  });

  it('when limit is "abc", then the result is an error naming limit, and the next call works', async () => {
    const refused = (await client().callTool({
      name: 'list_banking_transactions',
      arguments: { limit: 'abc' },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/\blimit\b/);
    expect(text(refused)).toMatch(/400/);
    const next = (await client().callTool({
      name: 'list_banking_transactions',
      arguments: { limit: 2 },
    })) as CallToolResult;
    expect((next.structuredContent as { transactions: unknown[] }).transactions).toHaveLength(2);
  });

  it('when a transaction is reconciled through its tool, then the read tool shows it reconciled', async () => {
    const page = (await client().callTool({
      name: 'list_banking_transactions',
      arguments: { limit: 1 },
    })) as CallToolResult;
    const [tx] = (page.structuredContent as { transactions: { id: number }[] }).transactions;
    const done = (await client().callTool({
      name: 'reconcile_banking_transaction',
      arguments: { transactionId: tx!.id, isConciled: true, notes: 'Invoice 2026-118' },
    })) as CallToolResult;
    expect(done.isError, text(done)).toBeFalsy();
    const read = (await client().callTool({
      name: 'get_banking_transaction',
      arguments: { transactionId: tx!.id },
    })) as CallToolResult;
    expect((read.structuredContent as { conciliation: { conciled: boolean } }).conciliation.conciled).toBe(true);
  });

  it('when the credentials only read, then no write tool is listed', async () => {
    const { tools } = await readOnly().listTools();
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name)).toEqual([]);
    const refused = (await readOnly().callTool({
      name: 'create_cost_center',
      arguments: { name: 'X' },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
  });

  it('when the contract resource is read, then it is the public OpenAPI document', async () => {
    const { resources } = await client().listResources();
    expect(resources.map((r) => r.uri)).toContain('finance://docs/errors.md');
    const read = await client().readResource({ uri: 'finance://openapi.json' });
    const doc = JSON.parse(String((read.contents[0] as { text: string }).text)) as { openapi: string };
    expect(doc.openapi).toMatch(/^3\.1/);
  });
}
