// downloadBankingExport / downloadCreditCardExport as CSV: the rows of the list with the same
// filters, each once and in its order, read back with csv-parse; both dialects; formula injection.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BankingExportQuery,
  FinanceApiError,
  type FinanceClient,
  type components,
  saveExport,
} from '../client/index.js';
import { loadBundle } from '../server/contract/index.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';
import { collect, expectedCell, financeOf, text } from './support/exports.js';

type Banking = components['schemas']['BankingTransaction'];

let server: TestServer;
let acme: TestCompany;
let finance: FinanceClient;
let a: number;
let b: number;
let globexAccount: number;
const TRICKY = ['=SUM(A1:A9)', '+55 11 99999', '-2+3', '@cmd', '\tTAB', 'a;b,"quoted"\nnext line', 'Conciliação ✓'];

beforeAll(async () => {
  server = await startTestServer();
  acme = await server.newCompany();
  finance = financeOf(server, acme);
  a = await createAccount(server.db, acme.companyId);
  b = await createAccount(server.db, acme.companyId);
  const base = Date.parse('2026-09-01T03:00:00.000Z');
  // 1,150 rows: more than two export chunks; equal dates and amounts so that ties are broken by id.
  const rows = (n: number, offset: number) =>
    Array.from({ length: n }, (_, i) => ({
      transaction_date: new Date(base + Math.floor((i + offset) / 3) * 3_600_000).toISOString(),
      brl_amount_minor: 1000 + ((i * 37) % 400) * 25,
      total_amount_minor: 1000 + ((i * 37) % 400) * 25 + (i % 4 === 0 ? 1250 : 0),
      status: ((i % 3) + 1) as 1 | 2 | 3,
      conciled: i % 5 === 0 ? 1 : 0,
      sub_type: i % 6 === 0 ? 'CREDIT' : 'DEBIT',
      notes: TRICKY[i % 40] ?? '',
      usd_amount_minor: i % 9 === 0 ? 5000 : null,
      usd_exchange_rate: i % 9 === 0 ? 5.4333 : null,
      usd_exchange_rate_date: i % 9 === 0 ? '2026-09-01T03:00:00.000Z' : null,
    }));
  await createBankingTransactions(server.db, acme.companyId, a, rows(700, 0));
  // Account b's card ends in 0663: a leading zero a spreadsheet must keep.
  await createBankingTransactions(
    server.db,
    acme.companyId,
    b,
    rows(450, 1).map((row) => ({ ...row, final_card_number: '0663' })),
  );
  const globex = await server.newCompany();
  globexAccount = await createAccount(server.db, globex.companyId);
  await createBankingTransactions(server.db, globex.companyId, globexAccount, [{}]);
  await createCreditCardTransactions(
    server.db,
    acme.companyId,
    Array.from({ length: 620 }, (_, i) => ({
      transaction_date: new Date(base + Math.floor(i / 2) * 3_600_000).toISOString(),
      card_id: i % 2 ? 'c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e' : '5e0d9b1a-7c3f-4e2d-8a6b-1f0e9d8c7b6a',
      notes: TRICKY[i % 30] ?? '',
      ...(i % 7 === 0 ? { installment_number: 2, installment_total: 6 } : {}),
    })),
  );
  await createCreditCardTransactions(server.db, globex.companyId, [{}]);
}, 120_000);
afterAll(async () => server.close());

const csvRows = (body: string, delimiter = ',') =>
  parse(body, { delimiter, bom: true, relax_column_count: false }) as string[][];

/** The CSV's rows as the list's items would be written: header, then one row per item. */
function expectSameRows(rows: string[][], items: object[]) {
  const [header, ...data] = rows;
  expect(data).toHaveLength(items.length);
  for (const [i, item] of items.entries()) {
    expect(data[i]).toEqual(header!.map((column) => expectedCell(item, column)));
  }
}

/** The CSV columns the operation's description lists, in order. */
function listedColumns(operationId: string): string[] {
  const bundle = loadBundle('public') as {
    paths: Record<string, { get?: { operationId: string; description: string } }>;
  };
  const text = Object.values(bundle.paths).find((p) => p.get?.operationId === operationId)!.get!.description;
  const list = text.split('`true`/`false`):')[1]!.split('A text cell')[0]!;
  return [...list.matchAll(/`([A-Za-z.]+)`/g)].map((m) => m[1]!);
}

/** The excel-br headers docs/exports.md lists for the operation's statement, in order. */
function portugueseHeaders(operationId: string): string[] {
  const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'exports.md'), 'utf8');
  const heading = operationId === 'downloadBankingExport' ? '### Banking' : '### Credit card';
  const table = doc.split(heading)[1]!.split('\n\n')[1]!;
  return table
    .split('\n')
    .slice(2)
    .map((line) => line.split('|')[2]!.trim());
}

describe('downloadBankingExport', () => {
  it('when exported as CSV without filters, then every row of the list, in its order, with the same values', async () => {
    const items = await collect(finance.paginate.bankingTransactions({ limit: 50 }));
    expect(items).toHaveLength(1150);
    const rows = csvRows(await text(await finance.exports.banking({ format: 'csv' })));
    expectSameRows(rows, items);
  });

  it('when filtered and sorted, then exactly the rows the list gives for the same query', async () => {
    const queries: Array<Omit<BankingExportQuery, 'format' | 'dialect'>> = [
      { sorting: 'brlAmount:asc', status: [2, 3], wasConciled: false },
      { sorting: 'totalTransactionAmount:desc', amountLt: 60 },
      { accountId: a, startDate: '2026-09-05', endDate: '2026-09-12', sorting: 'transactionDate:asc' },
      { amountEq: 10.25, hasAttachments: false },
    ];
    for (const query of queries) {
      const items: Banking[] = await collect(finance.paginate.bankingTransactions({ ...query, limit: 50 }));
      expect(items.length).toBeGreaterThan(0);
      expectSameRows(csvRows(await text(await finance.exports.banking({ ...query, format: 'csv' }))), items);
    }
  });

  it('when the columns are read, then they are the ones the contract lists, in its order', async () => {
    const [header] = csvRows(await text(await finance.exports.banking({ format: 'csv', amountEq: 999999 })));
    expect(listedColumns('downloadBankingExport')).toEqual(header);
  });

  it('when a text cell starts with =, +, -, @ or a tab, then it gets a leading quote and stays one cell', async () => {
    const rows = csvRows(await text(await finance.exports.banking({ format: 'csv', sorting: 'transactionDate:asc' })));
    const notes = rows[0]!.indexOf('notes');
    const cells = new Set(rows.slice(1).map((r) => r[notes]));
    for (const cell of [
      "'=SUM(A1:A9)",
      "'+55 11 99999",
      "'-2+3",
      "'@cmd",
      "'\tTAB",
      'a;b,"quoted"\nnext line',
      'Conciliação ✓',
    ])
      expect(cells).toContain(cell);
  });

  it('when the excel-br dialect is asked for, then a BOM, semicolons, two-decimal commas, dd/mm/yyyy dates and Portuguese headers and values', async () => {
    const query: Omit<BankingExportQuery, 'format'> = { sorting: 'brlAmount:desc', status: [2] };
    const items = await collect(finance.paginate.bankingTransactions({ ...query, limit: 50 }));
    const bytes = Buffer.from(
      await new Response(await finance.exports.banking({ ...query, format: 'csv', dialect: 'excel-br' })).arrayBuffer(),
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const body = bytes.toString('utf8');
    const [header, ...data] = csvRows(body, ';');
    expect(header).toEqual(portugueseHeaders('downloadBankingExport'));
    expect(data).toHaveLength(items.length);
    const col = (name: string) => header!.indexOf(name);
    const comma = (n: number) => n.toFixed(2).replace('.', ',');
    for (const [i, item] of items.entries()) {
      const row = data[i]!;
      expect(row[col('ID')]).toBe(String(item.id));
      expect(row[col('Valor (R$)')]).toBe(comma(item.brlAmount));
      expect(row[col('Valor total (R$)')]).toBe(comma(item.totalTransactionAmount));
      expect(row[col('IOF (R$)')]).toMatch(/^\d+,\d\d$/);
      const [date, time] = item.transactionDate.slice(0, 19).split('T');
      const [y, m, d] = date!.split('-');
      expect(row[col('Data')]).toBe(`${d}/${m}/${y} ${time}`);
      expect(row[col('Natureza')]).toBe(item.transactionType.subType === 'DEBIT' ? 'Débito' : 'Crédito');
      expect(row[col('Situação')]).toBe('Processada');
      expect(row[col('Conciliada')]).toBe(item.conciliation.conciled ? 'Sim' : 'Não');
      expect(row[col('Conciliação')]).toBe(item.conciliation.conciled ? 'Conciliada' : 'Não conciliada');
      expect(row[col('Comprovante disponível')]).toBe(item.showReceipt ? 'Sim' : 'Não');
      expect(row[col('Final do cartão')]).toBe(`="${item.finalCardNumber}"`);
    }
  });

  it('when an amount has fewer than two decimals or a text cell is digits only, then 12.50 and ="0663" in both dialects', async () => {
    const query = { accountId: b, amountEq: 12.5 };
    const rows = csvRows(await text(await finance.exports.banking({ ...query, format: 'csv' })));
    const br = csvRows(
      await text(await finance.exports.banking({ ...query, format: 'csv', dialect: 'excel-br' })),
      ';',
    );
    expect(rows.length).toBeGreaterThan(1);
    const [header, first] = rows;
    expect(first![header!.indexOf('brlAmount')]).toBe('12.50');
    expect(first![header!.indexOf('finalCardNumber')]).toBe('="0663"');
    const [brHeader, brFirst] = br;
    expect(brFirst![brHeader!.indexOf('Valor (R$)')]).toBe('12,50');
    expect(brFirst![brHeader!.indexOf('Final do cartão')]).toBe('="0663"');
  });

  it('when answered, then the media type and a file name naming the statement and the period', async () => {
    const csv = await finance.GET('/statements/v1/exports/banking', {
      params: { query: { format: 'csv', startDate: '2026-09-01', endDate: '2026-09-30' } },
      parseAs: 'text',
    });
    expect(csv.response.status).toBe(200);
    expect(csv.response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.response.headers.get('content-disposition')).toBe(
      'attachment; filename="banking-2026-09-01-2026-09-30.csv"',
    );
    const ofx = await finance.GET('/statements/v1/exports/banking', {
      params: { query: { format: 'ofx' } },
      parseAs: 'text',
    });
    expect(ofx.response.headers.get('content-type'), String(ofx.data ?? JSON.stringify(ofx.error))).toBe(
      'application/x-ofx',
    );
    expect(ofx.response.headers.get('content-disposition')).toBe('attachment; filename="banking-all.ofx"');
  });

  it('when saved with saveExport, then the file holds exactly the bytes of the export', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finance-save-'));
    try {
      const query: BankingExportQuery = { format: 'ofx', status: [1] };
      const path = join(dir, 'extrato.ofx');
      const bytes = await saveExport(await finance.exports.banking(query), path);
      const expected = Buffer.from(await new Response(await finance.exports.banking(query)).arrayBuffer());
      expect(bytes).toBe(expected.length);
      expect(readFileSync(path).equals(expected)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("when another company exports, then none of this company's rows", async () => {
    const globex = await server.newCompany();
    const rows = csvRows(await text(await financeOf(server, globex).exports.banking({ format: 'csv' })));
    expect(rows).toHaveLength(1);
    const theirs = csvRows(await text(await finance.exports.banking({ format: 'csv', accountId: globexAccount })));
    expect(theirs).toHaveLength(1);
    const ofx = await text(await finance.exports.banking({ format: 'ofx', accountId: globexAccount }));
    expect(ofx).not.toContain('<STMTTRN>');
  });

  it('when a filter breaks a rule of the list, then 400 in the error body before any byte', async () => {
    const bad = [
      { format: 'csv', startDate: '2026-09-01' },
      { format: 'csv', amountEq: 1, amountGt: 2 },
      { format: 'ofx', dialect: 'excel-br' },
      { format: 'xlsx' },
      { format: 'csv', sorting: 'id:asc' },
      { format: 'csv', limit: 10 },
      { format: 'csv', nextPageStartKey: 'abc.def' },
      {},
    ];
    for (const query of bad) {
      const error = await finance.exports.banking(query as never).catch((e: unknown) => e);
      expect(error, JSON.stringify(query)).toBeInstanceOf(FinanceApiError);
      expect((error as FinanceApiError).status).toBe(400);
      expect((error as FinanceApiError).requestId).toMatch(/\S/);
    }
  });

  it('when the token lacks statements:read, then 403', async () => {
    const writer = await server.newCompany({ scopes: ['directory:read'] });
    const error = await financeOf(server, writer)
      .exports.banking({ format: 'csv' })
      .catch((e: unknown) => e);
    expect((error as FinanceApiError).status).toBe(403);
  });
});

describe('downloadCreditCardExport', () => {
  it('when exported as CSV, with or without filters, then the rows of the list in its order', async () => {
    for (const query of [
      {},
      { cardIds: ['c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e'] },
      { startDate: '2026-09-03', endDate: '2026-09-06' },
    ]) {
      const items = await collect(finance.paginate.creditCardTransactions({ ...query, limit: 100 }));
      expect(items.length).toBeGreaterThan(0);
      expectSameRows(csvRows(await text(await finance.exports.creditCard({ ...query, format: 'csv' }))), items);
    }
  });

  it('when the columns are read, then they are the ones the contract lists, in its order', async () => {
    const [header] = csvRows(await text(await finance.exports.creditCard({ format: 'csv' })));
    expect(listedColumns('downloadCreditCardExport')).toEqual(header);
  });

  it('when excel-br is asked for, then the Portuguese headers docs/exports.md lists and two-decimal amounts', async () => {
    const items = await collect(finance.paginate.creditCardTransactions({ limit: 100 }));
    const [header, ...data] = csvRows(
      await text(await finance.exports.creditCard({ format: 'csv', dialect: 'excel-br' })),
      ';',
    );
    expect(header).toEqual(portugueseHeaders('downloadCreditCardExport'));
    for (const [i, item] of items.entries()) {
      expect(data[i]![header!.indexOf('Valor (R$)')]).toBe(item.brlAmount.toFixed(2).replace('.', ','));
      expect(data[i]![header!.indexOf('Valor original')]).toBe(item.amount.toFixed(2).replace('.', ','));
    }
  });

  it('when only one of startDate and endDate is sent, then 400', async () => {
    const error = await finance.exports.creditCard({ format: 'csv', endDate: '2026-09-01' }).catch((e: unknown) => e);
    expect((error as FinanceApiError).status).toBe(400);
  });
});
