// Statement exports: the whole filtered statement as one CSV or OFX file, streamed.
//   const body = await finance.exports.banking({ format: 'csv', startDate: '2026-11-01', endDate: '2026-11-30' });
//   await saveExport(body, 'november.csv');            // Node
// A refused export (400, 401, 403, 429…) throws a FinanceApiError before any byte is read; the
// body is a web ReadableStream of the file's bytes, read at the pace the caller reads it.
import type { Client } from 'openapi-fetch';
import type { operations, paths } from './generated/openapi.js';
import { unwrap } from './errors.js';

type QueryOf<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

export type BankingExportQuery = QueryOf<'downloadBankingExport'>;
export type CreditCardExportQuery = QueryOf<'downloadCreditCardExport'>;

export interface ExportOptions {
  /** Aborts the request, and the download once it streams. */
  signal?: AbortSignal;
}

export interface Exporters {
  banking(query: BankingExportQuery, options?: ExportOptions): Promise<ReadableStream<Uint8Array>>;
  creditCard(query: CreditCardExportQuery, options?: ExportOptions): Promise<ReadableStream<Uint8Array>>;
}

export function exporters(client: Client<paths>): Exporters {
  const open = async (
    path: '/statements/v1/exports/banking' | '/statements/v1/exports/credit-card',
    query: object,
    options?: ExportOptions,
  ) => {
    const body = await unwrap(
      client.GET(path, { params: { query: query as never }, parseAs: 'stream', signal: options?.signal }),
    );
    if (!body) throw new Error('The export answered without a body');
    return body as ReadableStream<Uint8Array>;
  };
  return {
    banking: (query, options) => open('/statements/v1/exports/banking', query, options),
    creditCard: (query, options) => open('/statements/v1/exports/credit-card', query, options),
  };
}

/** The part of Node's `fs/promises` that saveExport uses (the package carries no Node types). */
interface FileSystem {
  open(path: string, flags: string): Promise<{ write(data: Uint8Array): Promise<unknown>; close(): Promise<void> }>;
}

/**
 * Node only: writes an export's body to `path` (created or truncated), each chunk once the previous
 * one is on its way to disk. Answers the number of bytes written; a body cut short rejects, leaving
 * a partial file.
 */
export async function saveExport(body: ReadableStream<Uint8Array>, path: string): Promise<number> {
  const specifier: string = 'node:fs/promises';
  const fs = (await import(specifier)) as FileSystem;
  const file = await fs.open(path, 'w');
  const reader = body.getReader();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return bytes;
      await file.write(value);
      bytes += value.length;
    }
  } finally {
    reader.releaseLock();
    await file.close();
  }
}
