// CSV of presented statement items, written by csv-stringify one chunk of rows at a time, in two
// dialects: RFC 4180 (comma, `.` decimals, ISO 8601) and excel-br (semicolon, decimal comma,
// `dd/mm/yyyy`, UTF-8 with a byte order mark), for a pt-BR spreadsheet.
// Text cells that a spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, tab or
// carriage return) get a leading `'` and are quoted, as OWASP's "CSV Injection" page advises.
import { stringify } from 'csv-stringify/sync';
import { type Column, valueAt } from './columns.js';

export type CsvDialect = 'rfc4180' | 'excel-br';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEUTRALIZED = /^'[=+\-@\t\r]/;

/** `2026-11-18T14:32:05-03:00` (already in the company's zone) → `18/11/2026 14:32:05`. */
const brDateTime = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
const brDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

function cell(value: unknown, kind: Column[1], dialect: CsvDialect): string {
  if (kind === 'count') return String(Array.isArray(value) ? value.length : 0);
  if (value === null || value === undefined) return '';
  const br = dialect === 'excel-br';
  switch (kind) {
    case 'number':
      return br ? String(value).replace('.', ',') : String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'date':
      return br ? brDate(String(value)) : String(value);
    case 'dateTime':
      return br ? brDateTime(String(value)) : String(value);
    default: {
      const text = String(value);
      return FORMULA_START.test(text) ? `'${text}` : text;
    }
  }
}

/** Writes chunks of one export: the header row with the first, the byte order mark first of all in excel-br. */
export function csvWriter(columns: readonly Column[], dialect: CsvDialect) {
  const options = {
    delimiter: dialect === 'excel-br' ? ';' : ',',
    record_delimiter: 'windows' as const,
    quoted_match: NEUTRALIZED,
  };
  return {
    head: () => (dialect === 'excel-br' ? '\uFEFF' : '') + stringify([columns.map(([path]) => path)], options),
    rows: (items: readonly object[]) =>
      items.length === 0
        ? ''
        : stringify(
            items.map((item) => columns.map(([path, kind]) => cell(valueAt(item, path), kind, dialect))),
            options,
          ),
  };
}
