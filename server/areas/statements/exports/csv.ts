// CSV of presented statement items, written by csv-stringify one chunk of rows at a time, in two
// dialects: RFC 4180 (comma, `.` decimals, ISO 8601, the fields' names as headers) and excel-br
// (semicolon, decimal comma, `dd/mm/yyyy`, UTF-8 with a byte order mark, headers and a few values
// in Portuguese), for a pt-BR spreadsheet. In both, what a spreadsheet would change is protected:
//  - text cells that it would read as a formula (starting with `=`, `+`, `-`, `@`, tab or carriage
//    return) get a leading `'` and are quoted, as OWASP's "CSV Injection" page advises;
//  - text cells of digits only (a card's final digits `0663`) are written `="0663"`, a formula that
//    is nothing but that text, so LibreOffice and Excel keep them as text with their leading zeros;
//  - amounts have exactly two decimals.
import { stringify } from 'csv-stringify/sync';
import { type Column, valueAt } from './columns.js';

export type CsvDialect = 'rfc4180' | 'excel-br';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEUTRALIZED = /^'[=+\-@\t\r]/;
const DIGITS = /^[0-9]+$/;

/** `2026-11-18T14:32:05-03:00` (already in the company's zone) → `18/11/2026 14:32:05`. */
const brDateTime = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
const brDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

function cell(value: unknown, [, kind, , words]: Column, dialect: CsvDialect): string {
  if (kind === 'count') return String(Array.isArray(value) ? value.length : 0);
  if (value === null || value === undefined) return '';
  const br = dialect === 'excel-br';
  const decimals = (text: string) => (br ? text.replace('.', ',') : text);
  switch (kind) {
    case 'number':
      return decimals(String(value));
    case 'amount':
      return decimals((value as number).toFixed(2));
    case 'boolean':
      return br ? (value ? 'Sim' : 'Não') : value ? 'true' : 'false';
    case 'date':
      return br ? brDate(String(value)) : String(value);
    case 'dateTime':
      return br ? brDateTime(String(value)) : String(value);
    default: {
      const text = String(value);
      if (DIGITS.test(text)) return `="${text}"`;
      if (FORMULA_START.test(text)) return `'${text}`;
      return br ? (words?.[text] ?? text) : text;
    }
  }
}

/** Writes chunks of one export: the header row with the first, the byte order mark first of all in excel-br. */
export function csvWriter(columns: readonly Column[], dialect: CsvDialect) {
  const br = dialect === 'excel-br';
  const options = {
    delimiter: br ? ';' : ',',
    record_delimiter: 'windows' as const,
    quoted_match: NEUTRALIZED,
  };
  return {
    head: () => (br ? '\uFEFF' : '') + stringify([columns.map(([path, , header]) => (br ? header : path))], options),
    rows: (items: readonly object[]) =>
      items.length === 0
        ? ''
        : stringify(
            items.map((item) => columns.map((column) => cell(valueAt(item, column[0]), column, dialect))),
            options,
          ),
  };
}
