// The uploaded attachments of a set of transactions, oldest first, grouped by transaction.
import type { Db } from '../../../db/database.js';

export interface AttachmentSummary {
  id: string;
  name: string;
  content_type: string;
}

export async function bankingAttachments(db: Db, companyId: string, ids: number[]): Promise<Map<number, AttachmentSummary[]>> {
  const byTransaction = new Map<number, AttachmentSummary[]>();
  if (ids.length === 0) return byTransaction;
  const rows = await db
    .selectFrom('attachments')
    .select(['id', 'name', 'content_type', 'banking_transaction_id'])
    .where('company_id', '=', companyId)
    .where('banking_transaction_id', 'in', ids)
    .where('status', '=', 'UPLOADED')
    .orderBy('uploaded_at')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const key = row.banking_transaction_id!;
    byTransaction.set(key, [...(byTransaction.get(key) ?? []), row]);
  }
  return byTransaction;
}

export async function creditCardAttachments(db: Db, companyId: string, ids: string[]): Promise<Map<string, AttachmentSummary[]>> {
  const byTransaction = new Map<string, AttachmentSummary[]>();
  if (ids.length === 0) return byTransaction;
  const rows = await db
    .selectFrom('attachments')
    .select(['id', 'name', 'content_type', 'credit_card_transaction_id'])
    .where('company_id', '=', companyId)
    .where('credit_card_transaction_id', 'in', ids)
    .where('status', '=', 'UPLOADED')
    .orderBy('uploaded_at')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const key = row.credit_card_transaction_id!;
    byTransaction.set(key, [...(byTransaction.get(key) ?? []), row]);
  }
  return byTransaction;
}
