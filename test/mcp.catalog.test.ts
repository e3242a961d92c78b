// The tools are the contract: every public operation is a tool or says why it is none, every tool
// is an operation, and the names, schemas and hints follow the rules of docs/mcp.md.
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../server/contract/index.js';
import { contractTools, notATool, snakeCase, toolsFor } from '../server/mcp/catalog.js';
import { apiRequest, idempotencyKey, MAX_PAGE } from '../server/mcp/call.js';
import { hiddenByDefault, parseSelection } from '../server/mcp/selection.js';

type Json = Record<string, unknown>;
const bundle = loadBundle('public');
const tools = contractTools(bundle);
const operations = Object.entries(bundle.paths as Record<string, Json>).flatMap(([path, item]) =>
  ['get', 'post', 'put', 'patch', 'delete']
    .filter((m) => item[m])
    .map((method) => ({ path, method: method.toUpperCase(), op: item[method] as Json })),
);

describe('tools and operations', () => {
  it('when the public contract is read, then each operation is a tool or has a reason to be none', () => {
    const named = new Set(tools.map((t) => t.operationId));
    const missing = operations.filter(({ op }) => !named.has(String(op.operationId)) && !notATool(op));
    expect(missing.map(({ op }) => op.operationId)).toEqual([]);
    expect(operations.filter(({ op }) => notATool(op)).map(({ op }) => op.operationId)).toEqual([
      'createToken',
      'createAccessToken',
      'registerOAuthClient',
      'revokeOAuthToken',
      'downloadBankingTransactionReceipt',
      'uploadAttachmentContent',
      'redirectVcnCard',
    ]);
  });

  it('when the tools are built, then each is one operation of the contract, by method and path', () => {
    for (const tool of tools) {
      const found = operations.find((o) => o.path === tool.path && o.method === tool.method);
      expect(found?.op.operationId, tool.name).toBe(tool.operationId);
      expect(tool.name).toBe(snakeCase(tool.operationId));
    }
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  });
});

describe('names, schemas and hints', () => {
  it('when an operationId is camelCase, then the tool name is its snake_case', () => {
    expect(snakeCase('reconcileBankingTransaction')).toBe('reconcile_banking_transaction');
    expect(snakeCase('listCostCenters')).toBe('list_cost_centers');
  });

  it('when a tool takes path, query and body, then they sit side by side in one object schema, with no $ref', () => {
    const reconcile = tools.find((t) => t.name === 'reconcile_banking_transaction')!;
    expect(Object.keys(reconcile.inputSchema.properties as Json)).toEqual(
      expect.arrayContaining(['transactionId', 'isConciled']),
    );
    expect(reconcile.inputSchema.required).toContain('transactionId');
    for (const tool of tools) expect(JSON.stringify(tool.inputSchema)).not.toContain('$ref');
  });

  it('when the method is GET, DELETE or PUT, then the hints say read-only, destructive or idempotent', () => {
    for (const tool of tools) {
      expect(tool.annotations.readOnlyHint).toBe(tool.method === 'GET');
      expect(tool.annotations.destructiveHint).toBe(tool.method === 'DELETE');
      if (tool.method === 'PUT') expect(tool.annotations.idempotentHint).toBe(true);
    }
  });

  it('when no list is given, then sandbox, reveal and secret-returning tools are hidden, and an allow list shows them', () => {
    const everyScope = new Set(tools.flatMap((t) => t.scopes));
    const listed = toolsFor(tools, everyScope, parseSelection(undefined)).map((t) => t.name);
    expect(listed.filter((n) => /sandbox|reveal|secret/.test(n))).toEqual([]);
    expect(listed).not.toContain('create_webhook_endpoint');
    expect(listed).not.toContain('create_approval_code');
    expect(tools.filter((t) => hiddenByDefault(t)).every((t) => !listed.includes(t.name))).toBe(true);
    const allowed = toolsFor(tools, everyScope, parseSelection('reveal_vcn,-list_*')).map((t) => t.name);
    expect(allowed).toContain('reveal_vcn');
    expect(allowed.filter((n) => n.startsWith('list_'))).toEqual([]);
  });
});

describe('requests', () => {
  it('when a write is called twice with the same arguments, then both carry the same Idempotency-Key, and other arguments another', () => {
    const create = tools.find((t) => t.name === 'create_cost_center')!;
    const first = apiRequest(create, { name: 'Marketing' });
    expect(first.headers['Idempotency-Key']).toBe(idempotencyKey(create, { name: 'Marketing' }));
    expect(apiRequest(create, { name: 'Marketing' }).headers).toEqual(first.headers);
    expect(apiRequest(create, { name: 'Sales' }).headers['Idempotency-Key']).not.toBe(first.headers['Idempotency-Key']);
    expect(first.body).toEqual({ name: 'Marketing' });
  });

  it('when a list asks for more than one call may return, then the page is capped', () => {
    const list = tools.find((t) => t.name === 'list_banking_transactions')!;
    expect(apiRequest(list, { limit: 10_000 }).query.limit).toBe(MAX_PAGE);
    expect(apiRequest(list, {}).query.limit).toBeLessThanOrEqual(MAX_PAGE);
    expect(apiRequest(list, {}).headers).toEqual({});
  });
});
