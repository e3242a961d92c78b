// One export, CSV or OFX, from its chunks of presented items: the head, each chunk as it is read,
// the tail. Answers the number of rows written.
import type { Column } from './columns.js';
import { csvWriter, type CsvDialect } from './csv.js';
import { type OfxHead, ofxHead, ofxTail, ofxTransactions, type OfxStatement, type OfxTransaction } from './ofx.js';
import type { Write } from './stream.js';

export type ExportFormat = 'csv' | 'ofx';

interface ExportSource<T> {
  statement: OfxStatement;
  columns: readonly Column[];
  chunks: AsyncIterable<T[]> | Iterable<T[]>;
  /** OFX: the transaction a row is. */
  toOfx(item: T): OfxTransaction;
  /** OFX: the account and the period (ISO 8601 with the company's offset). */
  period(): Promise<Pick<OfxHead, 'account' | 'start' | 'end'>>;
  /** OFX: the ledger balance the statement ends with, given the sum of the rows' signed amounts. */
  balance(rowsTotal: number): Promise<number>;
}

export async function writeExport<T extends object>(
  write: Write,
  format: ExportFormat,
  dialect: CsvDialect,
  now: string,
  source: ExportSource<T>,
): Promise<number> {
  let rows = 0;
  if (format === 'csv') {
    const csv = csvWriter(source.columns, dialect);
    await write(csv.head());
    for await (const items of source.chunks) {
      rows += items.length;
      await write(csv.rows(items), items.length);
    }
    return rows;
  }
  await write(ofxHead({ statement: source.statement, now, ...(await source.period()) }));
  let totalCents = 0;
  for await (const items of source.chunks) {
    const transactions = items.map((item) => source.toOfx(item));
    for (const t of transactions) totalCents += Math.round(t.amount * 100);
    rows += items.length;
    await write(ofxTransactions(transactions), items.length);
  }
  await write(ofxTail(source.statement, await source.balance(totalCents / 100), now));
  return rows;
}
