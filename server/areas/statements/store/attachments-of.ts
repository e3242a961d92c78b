// The uploaded attachments of a set of transactions, oldest first, grouped by transaction.
import type { Db } from '../../../db/database.js';
import { inList, prepared } from '../../../db/prepared.js';

export interface AttachmentSummary {
  id: string;
  name: string;
  content_type: string;
}

type Column = 'banking_transaction_id' | 'credit_card_transaction_id';

/** Prepared once per column (server/db/prepared.ts); the ids bind as one list. */
const attachmentsQuery = (column: Column) =>
  prepared<{ companyId: string; ids: Array<number | string> }, AttachmentSummary & { transaction_id: unknown }>(
    (db, p) =>
      db
        .selectFrom('attachments')
        .select((eb) => ['id', 'name', 'content_type', eb.ref(column).as('transaction_id')])
        .where('company_id', '=', p.companyId)
        .where(inList(db, column, p.ids))
        .where('status', '=', 'UPLOADED')
        .orderBy('uploaded_at')
        .orderBy('id'),
  );
const queries = {
  banking_transaction_id: attachmentsQuery('banking_transaction_id'),
  credit_card_transaction_id: attachmentsQuery('credit_card_transaction_id'),
};

async function attachmentsOf<K extends number | string>(
  db: Db,
  companyId: string,
  column: Column,
  ids: K[],
): Promise<Map<K, AttachmentSummary[]>> {
  const byTransaction = new Map<K, AttachmentSummary[]>();
  if (ids.length === 0) return byTransaction;
  const { rows } = await queries[column](db, { companyId, ids });
  for (const { transaction_id, ...summary } of rows) {
    const key = transaction_id as K;
    const list = byTransaction.get(key);
    if (list) list.push(summary);
    else byTransaction.set(key, [summary]);
  }
  return byTransaction;
}

export const bankingAttachments = (db: Db, companyId: string, ids: number[]) =>
  attachmentsOf(db, companyId, 'banking_transaction_id', ids);

export const creditCardAttachments = (db: Db, companyId: string, ids: string[]) =>
  attachmentsOf(db, companyId, 'credit_card_transaction_id', ids);
