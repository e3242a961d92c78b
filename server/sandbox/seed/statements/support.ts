// Reads and writes the statements seeder needs beyond inserting transactions.
import type { Insertable, Kysely } from 'kysely';
import type { Db } from '../../../db/database.js';
import type { Database } from '../../../db/database.js';
import type { AccountTable } from '../../../areas/statements/tables.js';
import { chunks } from '../../../lib/chunks.js';

export interface SeedPools {
  users: Array<{ id: string; name: string; email: string }>;
  categoryIds: number[];
  costCenterIds: string[];
  accounts: Array<{ id: number; name: string }>;
}

export async function seedPools(db: Db, companyId: string): Promise<SeedPools> {
  const users = await db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .orderBy('email')
    .execute();
  const categories = await db
    .selectFrom('categories')
    .select('id')
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  const costCenters = await db
    .selectFrom('cost_centers')
    .select('id')
    .where('company_id', '=', companyId)
    .orderBy('name')
    .execute();
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'name'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return { users, categoryIds: categories.map((c) => c.id), costCenterIds: costCenters.map((c) => c.id), accounts };
}

export async function insertAccounts(
  db: Db,
  rows: Array<Insertable<AccountTable>>,
): Promise<Array<{ id: number; name: string }>> {
  return db.insertInto('accounts').values(rows).returning(['id', 'name']).execute();
}

/** Bills due before `today` are paid the day before they fall due, at 10:00 (in UTC-3). */
export async function payPastBills(trx: Kysely<Database>, companyId: string, today: string): Promise<void> {
  const due = await trx
    .selectFrom('bills')
    .select('due_date')
    .where('company_id', '=', companyId)
    .where('due_date', '<', today)
    .where('paid_at', 'is', null)
    .execute();
  for (const { due_date } of due) {
    const paidAt = new Date(Date.parse(`${due_date}T13:00:00.000Z`) - 86_400_000).toISOString();
    await trx
      .updateTable('bills')
      .set({ paid_at: paidAt })
      .where('company_id', '=', companyId)
      .where('due_date', '=', due_date)
      .execute();
  }
}

/** Stores `files` (content-addressed, in the database) and attaches them, uploaded, to banking transactions. */
export async function attachSeedFiles(
  trx: Kysely<Database>,
  companyId: string,
  files: Array<{ sha256: string; content: Buffer }>,
  links: Array<{ id: string; bankingId: number; name: string; file: number; at: string }>,
): Promise<void> {
  for (const f of files) {
    await trx
      .insertInto('attachment_blobs')
      .values({
        sha256: f.sha256,
        content: f.content,
        size_bytes: f.content.length,
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column('sha256').doNothing())
      .execute();
  }
  for (const batch of chunks(links)) {
    await trx
      .insertInto('attachments')
      .values(
        batch.map((l) => {
          const f = files[l.file]!;
          return {
            id: l.id,
            company_id: companyId,
            banking_transaction_id: l.bankingId,
            credit_card_transaction_id: null,
            name: l.name,
            content_type: 'application/pdf',
            status: 'UPLOADED' as const,
            size_bytes: f.content.length,
            sha256: f.sha256,
            created_at: l.at,
            upload_expires_at: l.at,
            uploaded_at: l.at,
          };
        }),
      )
      .execute();
    await trx
      .updateTable('banking_transactions')
      .set({ has_attachments: 1 })
      .where(
        'id',
        'in',
        batch.map((l) => l.bankingId),
      )
      .execute();
  }
}

/**
 * Raises each account's opening balance so that, over the movements just written (net `net`,
 * lowest running total `lowest`, both counted from the balance before them), it never fell below
 * `cushion`.
 */
export async function fundAccounts(
  trx: Kysely<Database>,
  companyId: string,
  accounts: Array<{ id: number; net: number; lowest: number; cushion: number }>,
): Promise<void> {
  for (const a of accounts) {
    const row = await trx
      .selectFrom('accounts')
      .select('balance_minor')
      .where('company_id', '=', companyId)
      .where('id', '=', a.id)
      .executeTakeFirst();
    if (!row) continue;
    const before = row.balance_minor - a.net;
    const lift = Math.max(0, a.cushion - (before + a.lowest));
    await trx
      .updateTable('accounts')
      .set((eb) => ({
        opening_balance_minor: eb('opening_balance_minor', '+', lift),
        balance_minor: eb('balance_minor', '+', lift),
      }))
      .where('company_id', '=', companyId)
      .where('id', '=', a.id)
      .execute();
  }
}
