// What the export tests share: a client of the package for a test company, the list read through
// its page iterator, and the expected CSV cell of a list item's field, written out independently of
// the server's code from the contract's description of the columns.
import { createFinanceClient, type FinanceClient } from '../../client/index.js';
import type { TestCompany, TestServer } from './server.js';
import { loadBundle } from '../../server/contract/index.js';

/** The package's client for `company`; `retry: false` answers a 429 at once instead of waiting it out. */
export function financeOf(server: TestServer, company: TestCompany, { retry = true } = {}): FinanceClient {
  return createFinanceClient({
    baseUrl: server.baseUrl,
    clientId: company.clientId,
    clientSecret: company.clientSecret,
    ...(retry ? {} : { retry: { maxRetries: 0 } }),
  });
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** The whole body of a web stream, as text. */
export async function text(body: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(body).text();
}

const at = (item: object, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((v, k) => (v === null || v === undefined ? undefined : (v as Record<string, unknown>)[k]), item);

/** The fields the contract gives two decimals (`x-decimal-places: 2`) in the statements' items: the amounts. */
const AMOUNTS = (() => {
  const schemas = (loadBundle('public') as { components: { schemas: Record<string, { properties: object }> } })
    .components.schemas;
  const fields = ['BankingTransaction', 'CreditCardTransaction'].flatMap((name) =>
    Object.entries(schemas[name]!.properties as Record<string, Record<string, unknown>>),
  );
  return new Set(fields.filter(([, schema]) => schema['x-decimal-places'] === 2).map(([field]) => field));
})();

/** The cell the contract promises for `path` of `item` in the rfc4180 dialect. */
export function expectedCell(item: object, path: string): string {
  const value = at(item, path);
  if (path === 'attachments') return String((value as unknown[]).length);
  if (value === null || value === undefined) return '';
  if (AMOUNTS.has(path)) return (value as number).toFixed(2);
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) return `="${value}"`;
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(value)) return `'${value}`;
  return String(value);
}
