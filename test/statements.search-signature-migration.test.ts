// Migration 0032 signs the rows a database already holds: a database migrated to the build before
// it, with banking and card rows (more than one batch of them), then migrated to this build's latest.
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openStore } from '../server/db/store.js';
import { migrate } from '../server/db/database.js';
import { migrations } from '../server/db/migrations/index.js';
import { createCompany } from '../server/areas/auth/store.js';
import { systemClock } from '../server/lib/clock.js';
import { signatureOf } from '../server/lib/search-signature.js';
import { registerCards } from '../server/areas/statements/cards/register.js';
import { openBills } from '../server/areas/statements/store/insert.js';
import { freshDatabase } from './support/database.js';
import { bankingRow, createAccount, creditCardRow } from './support/factories/statements.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe('migration 0032_search_signatures', () => {
  it('when rows were written before it, then each gets the signature of its document, batch after batch', async () => {
    const { db } = await openStore(await freshDatabase(), { migrate: false });
    cleanups.push(() => db.destroy());
    await migrate(db, Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0032')));
    const companyId = await createCompany(db, systemClock, { name: 'Antes Ltda' });
    const account = await createAccount(db, companyId);
    const banking = Array.from({ length: 2_500 }, (_, i) =>
      bankingRow(companyId, account, { notes: `Reembolso ${i} Café`, description: `PIX ${i}` }),
    );
    for (let i = 0; i < banking.length; i += 500)
      await db
        .insertInto('banking_transactions')
        .values(banking.slice(i, i + 500))
        .execute();
    const card = creditCardRow(companyId, { notes: 'Jantar Ærø', merchant_name: 'BISTRO' });
    await openBills(db, [card], new Date());
    await registerCards(db, [card], new Date());
    await db.insertInto('credit_card_transactions').values([card]).execute();

    await migrate(db);

    const read = async (table: 'banking_transactions' | 'credit_card_transactions', columns: string[]) => {
      const { rows } = await sql<{ doc: string; lo: string; hi: string }>`select
        ${sql.raw(columns.map((c) => `coalesce(${c}, '')`).join(` || ' ' || `))} as doc,
        cast(search_sig_lo as text) as lo, cast(search_sig_hi as text) as hi from ${sql.table(table)}`.execute(db);
      return rows;
    };
    const bankingSigned = await read('banking_transactions', [
      'description',
      'notes',
      'source_destination_name',
      'place_establishment',
      'category_description',
    ]);
    const cardSigned = await read('credit_card_transactions', [
      'description',
      'notes',
      'merchant_name',
      'category_description',
    ]);
    expect(bankingSigned).toHaveLength(2_500);
    expect(cardSigned).toHaveLength(1);
    for (const row of [...bankingSigned, ...cardSigned]) {
      const [lo, hi] = signatureOf(row.doc);
      expect([row.lo, row.hi]).toEqual([String(lo), String(hi)]);
      expect(row.lo).not.toBe('-1');
    }
  });
});
