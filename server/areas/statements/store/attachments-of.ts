// The uploaded attachments of a set of transactions, oldest first, grouped by transaction.
import type { Db } from '../../../db/database.js';
import { compiledQueries } from '../../../db/compiled.js';

export interface AttachmentSummary {
  id: string;
  name: string;
  content_type: string;
}

type Column = 'banking_transaction_id' | 'credit_card_transaction_id';

/** Compiled once per column and number of transactions (server/db/compiled.ts). */
const queries = compiledQueries();

async function attachmentsOf<K extends number | string>(
  db: Db,
  companyId: string,
  column: Column,
  ids: K[],
): Promise<Map<K, AttachmentSummary[]>> {
  const byTransaction = new Map<K, AttachmentSummary[]>();
  if (ids.length === 0) return byTransaction;
  const values: Record<string, unknown> = { companyId };
  ids.forEach((id, i) => (values[i] = id));
  const { rows } = await queries(db, `${column}:${ids.length}`, values, (bind) =>
    db
      .selectFrom('attachments')
      .select((eb) => ['id', 'name', 'content_type', eb.ref(column).as('transaction_id')])
      .where('company_id', '=', bind<string>('companyId'))
      .where(
        column,
        'in',
        ids.map((_id, i) => bind<K>(String(i))),
      )
      .where('status', '=', 'UPLOADED')
      .orderBy('uploaded_at')
      .orderBy('id'),
  );
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
