// `finance secrets reencrypt`: the second half of a PAN_ENCRYPTION_KEY rotation. Every stored card
// number that opens only with the previous key is sealed again with the current one, a batch per
// transaction, so the previous key can then be dropped. Safe to run again (and while serving):
// a card already under the current key is left as it is.
import type { Db } from '../../../db/database.js';
import { writeTransaction } from '../../../db/transaction.js';
import { decryptPan, encryptPan } from '../crypto.js';

const BATCH = 500;

export async function reencryptPans(
  db: Db,
  keys: { panKey: Buffer; panKeyPrevious?: Buffer },
): Promise<{ cards: number; reencrypted: number }> {
  let after = '';
  let cards = 0;
  let reencrypted = 0;
  for (;;) {
    const rows = await db
      .selectFrom('vcns')
      .select(['id', 'pan_ciphertext'])
      .where('id', '>', after)
      .where('pan_ciphertext', 'is not', null)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    cards += rows.length;
    const stale = rows.flatMap((row) => {
      try {
        decryptPan(keys.panKey, row.id, row.pan_ciphertext!);
        return [];
      } catch {
        if (!keys.panKeyPrevious)
          throw new Error(`card ${row.id} does not open with PAN_ENCRYPTION_KEY; give PAN_ENCRYPTION_KEY_PREVIOUS`);
        const pan = decryptPan(keys.panKeyPrevious, row.id, row.pan_ciphertext!);
        return [{ id: row.id, sealed: row.pan_ciphertext!, next: encryptPan(keys.panKey, row.id, pan) }];
      }
    });
    await writeTransaction(db, async (trx) => {
      for (const row of stale)
        await trx
          .updateTable('vcns')
          .set({ pan_ciphertext: row.next })
          .where('id', '=', row.id)
          .where('pan_ciphertext', '=', row.sealed)
          .execute();
    });
    reencrypted += stale.length;
  }
  return { cards, reencrypted };
}
