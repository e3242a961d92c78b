// Search signatures (server/lib/search-signature.ts): each statement row's 104-bit Bloom filter of
// its search document's trigrams, in two integer columns carried by the ordered indexes a page walks,
// so a search's page checks the signature inside the index and reads only the rows that may match.
// -1 (every bit) is a signature not known: it lets every search through to the row's own text. The
// writes that know a row's document store its signature (ingest, inserts, a PATCH of its notes); a
// trigger resets it to -1 when a searched column changes without it, so it never hides a match.
import { sql, type Kysely } from 'kysely';
import { storeKind } from '../dialect.js';
import { signatureOf } from '../../lib/search-signature.js';

/** The searched columns of each statement, as migration 0020 declares them. */
const DOCUMENTS = [
  {
    table: 'banking_transactions',
    staging: 'ingest_banking_rows',
    columns: ['description', 'notes', 'source_destination_name', 'place_establishment', 'category_description'],
  },
  {
    table: 'credit_card_transactions',
    staging: 'ingest_credit_card_rows',
    columns: ['description', 'notes', 'merchant_name', 'category_description'],
  },
] as const;

const SIGNATURE_COLUMNS = ['search_sig_lo', 'search_sig_hi'] as const;

/** The ordered indexes a search's page walks, rebuilt with the signature at their end (as `<name>_sig`). */
const WALKED = [
  [
    'bt_company_date',
    'banking_transactions',
    ['company_id', 'transaction_date', 'id', 'brl_amount_minor', 'total_amount_minor'],
  ],
  ['bt_company_status_date', 'banking_transactions', ['company_id', 'status', 'transaction_date', 'id']],
  ['bt_company_conciled_date', 'banking_transactions', ['company_id', 'conciled', 'transaction_date', 'id']],
  ['cct_company_date', 'credit_card_transactions', ['company_id', 'transaction_date', 'id']],
] as const;

const BATCH = 2_000;

/**
 * Rebuilds the walked indexes with the signature at their end, under a new name (`…_sig`): a
 * statement is prepared against the schema its connection last saw. Migration 0033 runs it on PostgreSQL.
 */
export async function signWalkedIndexes(db: Kysely<any>): Promise<void> {
  for (const [name, table, columns] of WALKED) {
    await db.schema
      .createIndex(`${name}_sig`)
      .on(table)
      .columns([...columns, ...SIGNATURE_COLUMNS])
      .execute();
    await db.schema.dropIndex(name).execute();
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = storeKind(db) === 'postgres';
  for (const doc of DOCUMENTS)
    for (const table of [doc.table, doc.staging])
      for (const column of SIGNATURE_COLUMNS)
        await db.schema
          .alterTable(table)
          .addColumn(column, pg ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(-1))
          .execute();

  // The rows already stored, a batch at a time, in key order.
  for (const doc of DOCUMENTS) {
    const key = doc.table === 'banking_transactions' ? 'id' : pg ? 'id' : 'rowid';
    let after: string | number | undefined;
    for (;;) {
      const { rows } = await sql<{ k: string | number; doc: string }>`select ${sql.raw(key)} as k,
        ${sql.raw(doc.columns.map((c) => `coalesce(${c}, '')`).join(` || ' ' || `))} as doc
        from ${sql.table(doc.table)} ${after === undefined ? sql`` : sql`where ${sql.raw(key)} > ${after}`}
        order by ${sql.raw(key)} limit ${sql.lit(BATCH)}`.execute(db);
      if (rows.length === 0) break;
      // One statement per batch (UPDATE … FROM a VALUES list: SQLite and PostgreSQL alike).
      const keyType = sql.raw(doc.table === 'credit_card_transactions' && pg ? 'text' : 'bigint');
      const values = rows.map((row) => {
        const [lo, hi] = signatureOf(row.doc);
        return sql`(cast(${row.k} as ${keyType}), cast(${lo} as bigint), cast(${hi} as bigint))`;
      });
      await sql`update ${sql.table(doc.table)} set search_sig_lo = s.lo, search_sig_hi = s.hi
        from (select column1 as k, column2 as lo, column3 as hi from (values ${sql.join(values)}) as v) as s
        where ${sql.raw(`${doc.table}.${key}`)} = s.k`.execute(db);
      after = rows[rows.length - 1]!.k;
    }
  }

  // SQLite only here (PostgreSQL's since 0033).
  if (!pg) await signWalkedIndexes(db);

  // A searched column changed without its signature: the signature is no longer known.
  for (const doc of DOCUMENTS) {
    const changed = doc.columns.map((c) => `new.${c} is not old.${c}`).join(' or ');
    const kept = 'new.search_sig_lo = old.search_sig_lo and new.search_sig_hi = old.search_sig_hi';
    const trigger = sql.raw(`${doc.table}_signature`);
    if (pg) {
      await sql`create or replace function ${trigger}() returns trigger language plpgsql as $$
        begin
          if (${sql.raw(changed.replaceAll(' is not ', ' is distinct from '))}) and ${sql.raw(kept)} then
            new.search_sig_lo := -1;
            new.search_sig_hi := -1;
          end if;
          return new;
        end $$`.execute(db);
      await sql`create trigger ${trigger} before update on ${sql.table(doc.table)}
        for each row execute function ${trigger}()`.execute(db);
    } else {
      await sql`create trigger ${trigger} after update of ${sql.raw(doc.columns.join(', '))} on ${sql.table(doc.table)}
        when (${sql.raw(changed)}) and ${sql.raw(kept)} begin
          update ${sql.table(doc.table)} set search_sig_lo = -1, search_sig_hi = -1 where rowid = new.rowid; end`.execute(
        db,
      );
    }
  }
}
