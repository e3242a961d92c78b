// What the MCP tests share: a company with a statement to read and a card, clients of the official
// SDK over either transport, and the probes an assistant's session makes (the same on stdio and HTTP).
import { expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestCompany, TestServer } from './server.js';
import { createAccount, createBankingTransactions, createCard } from './factories/statements.js';
import { ESSENTIALS } from '../../server/mcp/groups.js';
import { localDate } from '../../server/lib/time.js';

export const READ_SCOPES = [
  'statements:read',
  'directory:read',
  'users:read',
  'vcn:read',
  'events:read',
  'webhooks:read',
];

export type StatementCompany = TestCompany & { cardId: string };

/** A company with 55 banking transactions (a few PIX transfers among them) and a card ending 4511. */
export async function companyWithStatement(server: TestServer, scopes?: readonly string[]): Promise<StatementCompany> {
  const company = await server.newCompany(scopes ? { scopes } : {});
  const account = await createAccount(server.db, company.companyId);
  await createBankingTransactions(
    server.db,
    company.companyId,
    account,
    Array.from({ length: 55 }, (_, i) => ({
      description:
        i % 9 === 0 ? `PIX enviado - Fornecedor ${i}` : i % 9 === 1 ? `PIX recebido - Cliente ${i}` : `Purchase ${i}`,
    })),
  );
  const card = await createCard(server.db, company.companyId, { last4: '4511' });
  return { ...company, cardId: card.id };
}

export async function connected(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'finance-test-assistant', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export const textOf = (result: unknown) =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

type Row = Record<string, unknown>;
export interface Table {
  inEveryRow?: Row;
  columns: string[];
  rows: unknown[][];
}

/** A table of a result's text back to its rows (a nested field under its `a.b` column name); a list of one stays a list. */
export const rowsOf = (table: Table | Row[]): Row[] =>
  Array.isArray(table)
    ? table
    : table.rows.map((cells) => ({
        ...table.inEveryRow,
        ...Object.fromEntries(table.columns.flatMap((name, i) => (cells[i] == null ? [] : [[name, cells[i]]]))),
      }));

/** A tool call's answer as the model reads it: the JSON of its text. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(result.structuredContent).toBeUndefined();
  const text = textOf(result);
  return { text, answer: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/**
 * The session an assistant has: `client()` is the SDK client of `company()`, all scopes and the
 * default tools; `readOnly()` one with read scopes only (each connected once and closed by the caller).
 */
export function assistantProbes(
  server: () => TestServer,
  company: () => StatementCompany,
  client: () => Client,
  readOnly: () => Client,
): void {
  it('when a full-scope token lists the tools, then it gets the default set in at most 64 KB, each description whole, the hints true to the effect', async () => {
    const listed = await client().listTools();
    expect(JSON.stringify(listed).length).toBeLessThanOrEqual(64 * 1024);
    const { tools } = listed;
    expect(tools.map((t) => t.name).sort()).toEqual([...ESSENTIALS].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.description, tool.name).toMatch(/[.)]$/);
      expect(tool.outputSchema).toBeUndefined();
    }
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    for (const name of ['block_card', 'unblock_card', 'reconcile_banking_transaction', 'update_user'])
      expect(hints[name]?.destructiveHint, name).toBe(true);
    for (const name of ['list_banking_transactions', 'get_banking_summary', 'list_unreconciled_transactions'])
      expect(hints[name]?.readOnlyHint, name).toBe(true);
    expect(hints.block_card?.idempotentHint).toBe(true);
  });

  it('when a page of 50 is listed, then every id and the next page key are in the text, and the key gives the rest', async () => {
    const { data } = await company().api.GET('/statements/v1/banking', { params: { query: { limit: 50 } } });
    const { answer } = await call(client(), 'list_banking_transactions', { limit: 50 });
    const page = answer.transactions as Table;
    expect(rowsOf(page).map((row) => row.id)).toEqual(data!.transactions.map((t) => t.id));
    const rest = await call(client(), 'list_banking_transactions', {
      limit: 50,
      nextPageStartKey: answer.nextPageStartKey,
    });
    expect(rowsOf(rest.answer.transactions as Table)).toHaveLength(5);
    expect(rest.answer.nextPageStartKey).toBeUndefined();
  });

  it('when a summary is asked with and without groupBy, then its total is in the text as the API answers it', async () => {
    const { data } = await company().api.GET('/statements/v1/banking/summary', {
      params: { query: { groupBy: 'status' } },
    });
    const plain = await call(client(), 'get_banking_summary');
    expect(plain.answer.total).toEqual(data!.total);
    const grouped = await call(client(), 'get_banking_summary', { groupBy: 'status' });
    expect(grouped.answer.total).toEqual(data!.total);
    expect(rowsOf(grouped.answer.groups as Table).map((g) => g.count)).toEqual(data!.groups.map((g) => g.count));
  });

  it('when q is "PIX enviado", then the tool finds the rows HTTP finds for q=PIX+enviado', async () => {
    const res = await fetch(`${server().baseUrl}/statements/v1/banking?q=PIX+enviado&limit=50`, {
      headers: { Authorization: `Bearer ${company().token}` },
    });
    const overHttp = ((await res.json()) as { transactions: { id: number }[] }).transactions.map((t) => t.id);
    expect(overHttp).toHaveLength(7);
    const { answer } = await call(client(), 'list_banking_transactions', { q: 'PIX enviado', limit: 50 });
    expect(rowsOf(answer.transactions as Table).map((row) => row.id)).toEqual(overHttp);
  });

  it('when the card is blocked, unblocked and blocked again, then it is BLOCKED with two card.blocked events; a key the client passes replays', async () => {
    const { api, cardId } = company();
    const status = async () =>
      (await api.GET('/credit-cards/v1/cards', { params: { query: { last4: '4511' } } })).data?.items[0]?.status;
    const block = { id: cardId, reason: 'Cartão perdido em viagem' };
    await call(client(), 'block_card', block);
    await call(client(), 'unblock_card', { id: cardId });
    await call(client(), 'block_card', block);
    expect(await status()).toBe('BLOCKED');
    const { data } = await api.GET('/events/v1/events', { params: { query: { types: ['card.blocked'] } } });
    expect(data?.items).toHaveLength(2);

    const idempotencyKey = `unblock-${cardId}`;
    await call(client(), 'unblock_card', { id: cardId, idempotencyKey });
    await call(client(), 'block_card', block);
    await call(client(), 'unblock_card', { id: cardId, idempotencyKey });
    expect(await status()).toBe('BLOCKED');
  });

  it('when limit is "abc", then the result is an error naming limit, and the next call works', async () => {
    const refused = (await client().callTool({
      name: 'list_banking_transactions',
      arguments: { limit: 'abc' },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/\blimit\b/);
    expect(textOf(refused)).toMatch(/400/);
    await call(client(), 'list_banking_transactions', { limit: 2 });
  });

  it('when a transaction is reconciled through its tool, then the unreconciled view leaves it out, and the missing-receipt view sums as the API', async () => {
    const before = await call(client(), 'list_unreconciled_transactions', { statement: 'banking' });
    const rows = rowsOf(before.answer.transactions as Table);
    const target = rows.find((row) => !String(row.description).startsWith('PIX'))!;
    await call(client(), 'reconcile_banking_transaction', {
      transactionId: target.id,
      isConciled: true,
      notes: 'Invoice 2026-118',
    });
    const after = await call(client(), 'list_unreconciled_transactions', { statement: 'banking' });
    expect(after.answer.count).toBe(Number(before.answer.count) - 1);
    expect(rowsOf(after.answer.transactions as Table).map((row) => row.id)).not.toContain(target.id);

    const { data } = await company().api.GET('/statements/v1/banking/summary', {
      params: { query: { hasAttachments: false } },
    });
    const missing = await call(client(), 'list_transactions_missing_receipts', { statement: 'banking' });
    expect(missing.answer.count).toBe(data!.total.count);
    expect(missing.answer.brlTotal).toBeCloseTo(data!.total.in + data!.total.out, 2);
  });

  it("when the company context is asked, then it names the company, its time zone and today's date there", async () => {
    const { answer } = await call(client(), 'get_company_context');
    expect(answer).toMatchObject({
      companyId: company().companyId,
      timeZone: 'America/Sao_Paulo',
      today: localDate(server().clock.now(), 'America/Sao_Paulo'),
    });
    expect(answer.name).toEqual(expect.any(String));
  });

  it('when the credentials only read, then no write tool is listed', async () => {
    const { tools } = await readOnly().listTools();
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name)).toEqual([]);
    const refused = (await readOnly().callTool({
      name: 'block_card',
      arguments: { id: company().cardId },
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
  });

  it('when the prompts and the contract resource are read, then the month-end close names its tools and the contract is OpenAPI', async () => {
    const { prompts } = await client().listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['month_end_close', 'missing_receipts']);
    const close = await client().getPrompt({ name: 'month_end_close', arguments: { month: '2026-10' } });
    const text = (close.messages[0]!.content as { text: string }).text;
    expect(text).toContain('2026-10');
    expect(text).toContain('list_unreconciled_transactions');
    const read = await client().readResource({ uri: 'finance://openapi.json' });
    const doc = JSON.parse(String((read.contents[0] as { text: string }).text)) as { openapi: string };
    expect(doc.openapi).toMatch(/^3\.1/);
  });
}
