// The tools are the contract: every public operation is a tool or says why it is none, every tool
// is an operation, and the names, hints, default set, requests and results follow docs/mcp.md.
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../server/contract/index.js';
import { contractTools, notATool, sentences, snakeCase, toolsFor } from '../server/mcp/catalog.js';
import { apiRequest, MAX_PAGE } from '../server/mcp/call.js';
import { compact } from '../server/mcp/compact.js';
import { ESSENTIALS } from '../server/mcp/groups.js';
import { ACTIONS } from '../server/mcp/hints.js';
import { toolResult } from '../server/mcp/result.js';
import { hiddenByDefault, parseSelection } from '../server/mcp/selection.js';
import { contractViews } from '../server/mcp/views.js';
import { rowsOf, type Table, textOf } from './support/mcp.js';

type Json = Record<string, unknown>;
const bundle = loadBundle('public');
const tools = contractTools(bundle);
const operations = Object.entries(bundle.paths as Record<string, Json>).flatMap(([path, item]) =>
  ['get', 'post', 'put', 'patch', 'delete']
    .filter((m) => item[m])
    .map((method) => ({ path, method: method.toUpperCase(), op: item[method] as Json })),
);
const operationOf = (tool: { path: string; method: string }) =>
  operations.find((o) => o.path === tool.path && o.method === tool.method)!;
const tool = (name: string) => tools.find((t) => t.name === name)!;
const everyScope = new Set(tools.flatMap((t) => t.scopes));

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
      'introspectOAuthToken',
      'downloadBankingTransactionReceipt',
      'uploadAttachmentContent',
      'redirectVcnCard',
    ]);
  });

  it('when the tools are built, then each is one operation of the contract, by method and path', () => {
    for (const t of tools) {
      expect(operationOf(t)?.op.operationId, t.name).toBe(t.operationId);
      expect(t.name).toBe(snakeCase(t.operationId));
    }
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  });

  it('when the default set is listed for every scope, then it holds 15 to 20 tools, each a tool or a view', () => {
    const views = contractViews(tools);
    const listed = [
      ...toolsFor(views, everyScope, parseSelection('')),
      ...toolsFor(tools, everyScope, parseSelection('')),
    ];
    expect(listed.map((t) => t.name).sort()).toEqual([...ESSENTIALS].sort());
    expect(listed.length).toBeGreaterThanOrEqual(15);
    expect(listed.length).toBeLessThanOrEqual(20);
  });
});

describe('hints', () => {
  const successOf = (op: Json) => Object.keys(op.responses as Json).find((s) => s.startsWith('2'));

  it("when a tool's operation is read, then its hints say what the operation does", () => {
    for (const t of tools) {
      const { method, path, op } = operationOf(t);
      const hints = t.annotations;
      const creates = method === 'POST' && successOf(op) === '201';
      expect(hints.readOnlyHint, t.name).toBe(method === 'GET');
      if (method === 'GET') expect(hints, t.name).toMatchObject({ destructiveHint: false, idempotentHint: true });
      else if (creates) expect(hints, t.name).toMatchObject({ destructiveHint: false, idempotentHint: false });
      else if (method === 'POST') expect(ACTIONS[t.operationId], `${t.name}: describe it in hints.ts`).toBeDefined();
      else expect(hints, `${method} ${path}`).toMatchObject({ destructiveHint: true, idempotentHint: true });
      expect(hints.openWorldHint, t.name).toBe(
        /^(createWebhookEndpoint|updateWebhookEndpoint|retryWebhookDelivery|createVcn|updateVcn|createInvite)$/.test(
          t.operationId,
        ),
      );
    }
  });

  it('when a write changes what exists, then it is destructive: blocks, reconciliations, roles, webhook URLs, deletes', () => {
    const destructive = tools.filter((t) => t.annotations.destructiveHint).map((t) => `${t.method} ${t.path}`);
    expect(destructive).toEqual(
      expect.arrayContaining([
        'POST /credit-cards/v1/{id}/block',
        'POST /credit-cards/v1/{id}/unblock',
        'PATCH /statements/v1/banking/{transactionId}',
        'PATCH /statements/v1/credit-card/{transactionId}',
        'PATCH /statements/v1/banking',
        'PATCH /users/v1/users/{userId}',
        'PATCH /webhooks/v1/endpoints/{endpointId}',
        'DELETE /cost-centers/v1/cost-centers/{id}',
        'POST /webhooks/v1/endpoints/{endpointId}/rotate-secret',
      ]),
    );
    expect(tool('block_card').annotations.idempotentHint).toBe(true);
    expect(tool('rotate_webhook_endpoint_secret').annotations.idempotentHint).toBe(false);
  });
});

describe('descriptions', () => {
  it('when a description is longer than its room, then it stops after a whole sentence', () => {
    expect(sentences('One. Two three. Four five six.', 16)).toBe('One. Two three.');
    for (const t of tools) {
      expect(t.description.length, t.name).toBeLessThanOrEqual(600);
      expect(t.description, t.name).not.toMatch(/…$/);
    }
  });
});

describe('selection', () => {
  it('when no list is given, then only the default set; a group adds its tools; marked tools need their own name', () => {
    const listed = (text: string) => toolsFor(tools, everyScope, parseSelection(text)).map((t) => t.name);
    expect(listed('').every((n) => ESSENTIALS.has(n))).toBe(true);
    expect(listed('webhooks')).toEqual(expect.arrayContaining(['update_webhook_endpoint', 'list_webhook_deliveries']));
    const all = listed('all');
    expect(tools.filter((t) => hiddenByDefault(t)).every((t) => !all.includes(t.name))).toBe(true);
    expect(all).not.toContain('reveal_vcn');
    expect(all).toContain('create_vcn');
    expect(listed('reveal_vcn')).toContain('reveal_vcn');
    expect(listed('all,-list_*').filter((n) => n.startsWith('list_'))).toEqual([]);
  });
});

describe('requests', () => {
  it('when the same write is called twice, then each call has its own key; a key the client passes is sent as given', () => {
    const block = tool('block_card');
    const args = { id: 'c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e', reason: 'Lost' };
    const first = apiRequest(block, args, 'mcp-a-1');
    const second = apiRequest(block, args, 'mcp-a-2');
    expect(first.headers['Idempotency-Key']).not.toBe(second.headers['Idempotency-Key']);
    expect(first.body).toEqual({ reason: 'Lost' });
    const keyed = apiRequest(block, { ...args, idempotencyKey: 'block-once' }, 'mcp-a-3');
    expect(keyed.headers['Idempotency-Key']).toBe('block-once');
    expect(keyed.body).toEqual({ reason: 'Lost' });
  });

  it('when a list asks for more than one call may return, then the page is capped at the operation maximum, and a read sends no key', () => {
    const list = tool('list_banking_transactions');
    expect(apiRequest(list, { limit: 10_000 }, 'k').query.limit).toBe(50);
    expect(apiRequest(tool('list_credit_card_transactions'), { limit: 10_000 }, 'k').query.limit).toBe(MAX_PAGE);
    expect(apiRequest(list, {}, 'k').query.limit).toBeLessThanOrEqual(MAX_PAGE);
    expect(apiRequest(list, {}, 'k').headers).toEqual({});
  });
});

describe('results', () => {
  it('when rows are compacted into a table, then each row reads back whole but for its empty fields', () => {
    const rows = [
      { id: 1, companyId: 'c', notes: '', costCenter: null, category: { id: 'FOOD', name: 'Food' }, tags: [] },
      { id: 2, companyId: 'c', notes: 'Taxi', costCenter: { id: 'x', description: 'Sales' }, category: { id: 'FOOD' } },
    ];
    const table = (compact({ transactions: rows }) as { transactions: Table }).transactions;
    expect(table.inEveryRow).toEqual({ companyId: 'c', 'category.id': 'FOOD' });
    expect(rowsOf(table)).toEqual([
      { id: 1, companyId: 'c', 'category.id': 'FOOD', 'category.name': 'Food' },
      {
        id: 2,
        companyId: 'c',
        'category.id': 'FOOD',
        notes: 'Taxi',
        'costCenter.id': 'x',
        'costCenter.description': 'Sales',
      },
    ]);
  });

  it('when an answer carries a card number and code, then only the reveal tool shows them', () => {
    const card = { vcnId: '01JD3R7M5Q2W8E4T6Y1V9K0PZX', card: { pan: '4111119274630518', cvv: '382' } };
    const answer = { status: 201, contentType: 'application/json', body: card };
    const issued = textOf(toolResult(tool('create_vcn'), apiRequest(tool('create_vcn'), {}, 'k'), answer));
    expect(issued).toContain('0518');
    expect(issued).not.toContain('4111119274630518');
    expect(issued).not.toContain('382');
    const revealed = textOf(toolResult(tool('reveal_vcn'), apiRequest(tool('reveal_vcn'), {}, 'k'), answer));
    expect(revealed).toContain('4111119274630518');
  });
});
