// The statements' change order (the `…/sync` feeds, DESIGN §11): a counter per company, advanced by
// every write that changes what the statement lists show, in the write's own transaction. Taking the
// next value updates the company's counter row, which stays locked until the transaction ends, so on
// PostgreSQL the values commit in the order they are taken (on SQLite writes are one at a time
// anyway): a reader that has seen value n has seen every change numbered below n. Each statement row
// keeps the value of its creation (`created_seq`) and of its latest change (`change_seq`); the feed
// reads rows in (change_seq, id) order. The counter is also the statements' data version: the
// lists' and exports' `ETag`. Lives here, below the areas, because the directory's deletes and
// renames change what the statements show too (reclassify.ts).
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;
export type StatementTable = 'banking_transactions' | 'credit_card_transactions';
const STATEMENTS: readonly StatementTable[] = ['banking_transactions', 'credit_card_transactions'];

/** Advances the company's statement version and returns it; the counter row stays locked until `trx` ends. */
export async function nextStatementVersion(trx: Db, companyId: string): Promise<number> {
  const row = await trx
    .insertInto('statement_versions')
    .values({ company_id: companyId, version: 1 })
    .onConflict((oc) => oc.column('company_id').doUpdateSet((eb) => ({ version: eb('statement_versions.version', '+', 1) })))
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

/** The company's statement version (0 before its first change). */
export async function statementVersion(db: Db, companyId: string): Promise<number> {
  const row = await db
    .selectFrom('statement_versions')
    .select('version')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * Marks the company's statement rows whose `column` is one of `values` as changed (a name they show
 * was renamed, a category or cost center they carry was deleted): they come again in the feeds.
 */
export async function touchStatementRows(
  trx: Db,
  companyId: string,
  column: 'cost_center_id' | 'custom_category_id',
  values: ReadonlyArray<string | number>,
): Promise<void> {
  if (values.length === 0) return;
  const version = await nextStatementVersion(trx, companyId);
  for (const table of STATEMENTS) {
    await (trx as unknown as Kysely<Record<StatementTable, Record<typeof column | 'company_id' | 'change_seq', unknown>>>)
      .updateTable(table)
      .set({ change_seq: version })
      .where('company_id', '=', companyId)
      .where(column, 'in', values)
      .execute();
  }
}
