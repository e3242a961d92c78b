// The CSV exports as a spreadsheet opens them: each file is converted by LibreOffice itself
// (`soffice --headless --convert-to fods`, the flat OpenDocument spreadsheet, with the dialect's
// separator and language, import settings otherwise the defaults), and the cells' types and values
// are read back. A card's final digits `0663` must stay the text `0663`, amounts must be numbers,
// excel-br's Portuguese headers and values must arrive as written, and no text cell may run as a
// formula. LibreOffice (Debian's `libreoffice-calc-nogui`) is installed when missing, as Chromium is for
// the browser tests.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinanceClient } from '../client/index.js';
import { ensureDebianPackage } from './support/debian.js';
import { financeOf } from './support/exports.js';
import {
  createAccount,
  createBankingTransactions,
  createCreditCardTransactions,
} from './support/factories/statements.js';
import { startTestServer, type TestCompany, type TestServer } from './support/server.js';

/** A cell as LibreOffice holds it: its type (`string`, `float`, `date`, `boolean`, or '' when empty), value, formula. */
interface Cell {
  type: string;
  value: string;
  formula?: string;
}

const xmlText = (text: string) =>
  text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');

const attribute = (attrs: string, name: string) => {
  const found = new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1];
  return found === undefined ? undefined : xmlText(found);
};

/** The rows of the first sheet of a flat ODS file, each a list of cells. */
function sheetRows(fods: string): Cell[][] {
  const table = fods.split('<table:table ')[1]!.split('</table:table>')[0]!;
  return table
    .split('<table:table-row')
    .slice(1)
    .map((row) => {
      const cells: Cell[] = [];
      for (const [, attrs = '', , content = ''] of row.matchAll(
        /<table:table-cell\b([^>]*?)(\/>|>([\s\S]*?)<\/table:table-cell>)/g,
      )) {
        const type = attribute(attrs, 'office:value-type') ?? '';
        const text = [...content.matchAll(/<text:p>([\s\S]*?)<\/text:p>/g)].map((p) => xmlText(p[1]!)).join('\n');
        const value =
          type === 'float'
            ? attribute(attrs, 'office:value')!
            : type === 'date'
              ? attribute(attrs, 'office:date-value')!
              : (attribute(attrs, 'office:string-value') ?? text);
        const formula = attribute(attrs, 'table:formula');
        const repeat = Number(attribute(attrs, 'table:number-columns-repeated') ?? 1);
        for (let i = 0; i < repeat; i++) cells.push({ type, value, ...(formula ? { formula } : {}) });
      }
      return cells;
    });
}

/** A file of Debian's libreoffice-calc-nogui (its spreadsheet component). */
const CALC = '/usr/lib/libreoffice/program/libsclo.so';

let dir: string;
let server: TestServer;
let acme: TestCompany;
let finance: FinanceClient;

beforeAll(async () => {
  // Calc's own library: LibreOffice's core (soffice) without Calc cannot open a CSV.
  ensureDebianPackage(CALC, 'libreoffice-calc-nogui');
  dir = mkdtempSync(join(tmpdir(), 'exports-spreadsheet-'));
  server = await startTestServer();
  acme = await server.newCompany();
  finance = financeOf(server, acme);
  const account = await createAccount(server.db, acme.companyId);
  await createBankingTransactions(server.db, acme.companyId, account, [
    { final_card_number: '0663', brl_amount_minor: 1250, total_amount_minor: 1250, notes: '=1+2', conciled: 1 },
    {
      final_card_number: '4021',
      brl_amount_minor: 129707,
      total_amount_minor: 129707,
      notes: '0042',
      sub_type: 'CREDIT',
    },
  ]);
  await createCreditCardTransactions(server.db, acme.companyId, [
    { final_card_number: '0663', brl_amount_minor: 1250, amount_minor: 1250, notes: '@SUM(A1)' },
  ]);
  await convertAll();
  // apt may have to fetch LibreOffice first, and each dialect's conversion starts LibreOffice.
}, 300_000);
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const DIALECTS = {
  // CSV import filter options: separator, text delimiter ("), UTF-8 (76), first line 1, no column types, language.
  rfc4180: { options: '44,34,76,1,,1033', language: 'en-US' },
  'excel-br': { options: '59,34,76,1,,1046', language: 'pt-BR' },
} as const;

/** Where each export is written, by dialect: its name and how the client fetches it. */
const EXPORTS = {
  rfc4180: {
    'banking-rfc4180': () => finance.exports.banking({ format: 'csv', sorting: 'brlAmount:asc' }),
    'credit-card-rfc4180': () => finance.exports.creditCard({ format: 'csv', dialect: 'rfc4180' }),
  },
  'excel-br': {
    'banking-excel-br': () => finance.exports.banking({ format: 'csv', dialect: 'excel-br', sorting: 'brlAmount:asc' }),
    'credit-card-excel-br': () => finance.exports.creditCard({ format: 'csv', dialect: 'excel-br' }),
  },
} as const;

/**
 * Every export fetched and opened by LibreOffice as a user of its dialect's language would: one
 * `soffice` run per dialect converts that dialect's files (a run costs seconds of start-up, a file
 * next to nothing), started before the tests so that they only read what it wrote.
 */
async function convertAll(): Promise<void> {
  for (const [dialect, files] of Object.entries(EXPORTS) as Array<
    [keyof typeof DIALECTS, Record<string, () => Promise<ReadableStream<Uint8Array>>>]
  >) {
    const csvs: string[] = [];
    for (const [name, fetchExport] of Object.entries(files)) {
      const csv = join(dir, `${name}.csv`);
      writeFileSync(csv, Buffer.from(await new Response(await fetchExport()).arrayBuffer()));
      csvs.push(csv);
    }
    await convert(csvs, DIALECTS[dialect].options);
  }
}

/** `soffice` converting `csvs` to flat ODS files beside them; its output when one is missing. */
async function convert(csvs: string[], options: string): Promise<void> {
  const { stdout, stderr } = await promisify(execFile)(
    'soffice',
    [
      `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
      '--headless',
      `--infilter=CSV:${options}`,
      '--convert-to',
      'fods',
      '--outdir',
      dir,
      ...csvs,
    ],
    { timeout: 120_000 },
  );
  const missing = csvs.filter((csv) => !existsSync(csv.replace(/\.csv$/, '.fods')));
  if (missing.length > 0) throw new Error(`soffice did not convert ${missing.join(', ')}:\n${stdout}${stderr}`);
}

/** An export as LibreOffice opened it: a map per data row, header → cell. */
function openedInLibreOffice(name: string) {
  const [header, ...rows] = sheetRows(readFileSync(join(dir, `${name}.fods`), 'utf8'));
  const names = header!.map((cell) => cell.value);
  return rows
    .filter((row) => row.some((cell) => cell.type !== ''))
    .map((row) => new Map(names.map((column, i) => [column, row[i] ?? { type: '', value: '' }])));
}

describe('CSV exports opened by LibreOffice', () => {
  it('when the rfc4180 banking export is opened, then 0663 stays text, amounts are numbers and no formula runs', async () => {
    const rows = openedInLibreOffice('banking-rfc4180');
    expect(rows).toHaveLength(2);
    const [cheap, dear] = rows;
    expect(cheap!.get('finalCardNumber')).toMatchObject({ type: 'string', value: '0663' });
    expect(dear!.get('finalCardNumber')).toMatchObject({ type: 'string', value: '4021' });
    expect(cheap!.get('brlAmount')).toEqual({ type: 'float', value: '12.5' });
    expect(dear!.get('totalTransactionAmount')).toEqual({ type: 'float', value: '1297.07' });
    expect(cheap!.get('notes')).toEqual({ type: 'string', value: "'=1+2" });
    expect(dear!.get('notes')).toMatchObject({ type: 'string', value: '0042' });
    expect(cheap!.get('transactionType.subType')).toEqual({ type: 'string', value: 'DEBIT' });
  });

  it('when the excel-br banking export is opened in pt-BR, then Portuguese headers and values, 0663 as text, amounts as numbers', async () => {
    const rows = openedInLibreOffice('banking-excel-br');
    expect(rows).toHaveLength(2);
    const [cheap, dear] = rows;
    expect(cheap!.get('Final do cartão')).toMatchObject({ type: 'string', value: '0663' });
    expect(cheap!.get('Valor (R$)')).toEqual({ type: 'float', value: '12.5' });
    expect(dear!.get('Valor total (R$)')).toEqual({ type: 'float', value: '1297.07' });
    expect(cheap!.get('Data')?.type).toBe('date');
    expect(cheap!.get('Conciliada')).toEqual({ type: 'string', value: 'Sim' });
    expect(dear!.get('Conciliada')).toEqual({ type: 'string', value: 'Não' });
    expect(cheap!.get('Conciliação')).toEqual({ type: 'string', value: 'Conciliada' });
    expect(cheap!.get('Natureza')).toEqual({ type: 'string', value: 'Débito' });
    expect(dear!.get('Natureza')).toEqual({ type: 'string', value: 'Crédito' });
    expect(cheap!.get('Situação')).toEqual({ type: 'string', value: 'Processada' });
    expect(cheap!.get('Observações')).toEqual({ type: 'string', value: "'=1+2" });
    expect(dear!.get('Observações')).toMatchObject({ type: 'string', value: '0042' });
  });

  it('when the credit-card exports are opened, then the final digits 0663 stay text in both dialects', async () => {
    for (const dialect of ['rfc4180', 'excel-br'] as const) {
      const [row] = openedInLibreOffice(`credit-card-${dialect}`);
      const column =
        dialect === 'rfc4180'
          ? ['finalCardNumber', 'brlAmount', 'notes']
          : ['Final do cartão', 'Valor (R$)', 'Observações'];
      expect(row!.get(column[0]!)).toMatchObject({ type: 'string', value: '0663' });
      expect(row!.get(column[1]!)).toEqual({ type: 'float', value: '12.5' });
      expect(row!.get(column[2]!)).toEqual({ type: 'string', value: "'@SUM(A1)" });
    }
  });
});
