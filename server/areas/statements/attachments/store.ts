// Attachment rows: declaration, the all-or-nothing completion of an upload, and reads.
import { PLATFORM, type Actor } from '../../../kit/handler.js';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/database.js';
import { conflict, notFound } from '../../../kit/errors.js';
import type { AttachmentRow } from '../tables.js';
import { writeTransaction } from '../../../db/transaction.js';
import { recordEvent } from '../../events/public.js';
import { companyTimeZone } from '../../auth/public.js';
import { formatInstant } from '../../../lib/time.js';
import { contentPath } from '../present.js';
import { markChanged, statementWriteTransaction } from '../versions.js';

/** An uploaded attachment as the API shows it (the upload's answer). */
function presentUploaded(row: AttachmentRow, timeZone: string) {
  return {
    id: row.id,
    name: row.name,
    type: row.content_type,
    size: row.size_bytes ?? 0,
    transactionId: String(row.banking_transaction_id ?? row.credit_card_transaction_id),
    statement: row.banking_transaction_id !== null ? ('banking' as const) : ('credit-card' as const),
    uploadedAt: formatInstant(row.uploaded_at!, timeZone),
    _links: { content: { href: contentPath(row.id), rel: 'content' as const } },
  };
}

const MAX_ATTACHMENTS_PER_TRANSACTION = 20;

export type TransactionRef = { statement: 'banking'; id: number } | { statement: 'credit-card'; id: string };

const column = (ref: TransactionRef) =>
  ref.statement === 'banking' ? 'banking_transaction_id' : 'credit_card_transaction_id';

/** Declares a pending attachment of a company's transaction (404 when absent, 409 when full). */
export async function declareAttachment(
  db: Db,
  companyId: string,
  ref: TransactionRef,
  file: { name: string; type: string },
  now: Date,
  expiresAt: Date,
): Promise<string> {
  return writeTransaction(db, async (trx) => {
    const exists =
      ref.statement === 'banking'
        ? await trx
            .selectFrom('banking_transactions')
            .select('id')
            .where('company_id', '=', companyId)
            .where('id', '=', ref.id)
            .executeTakeFirst()
        : await trx
            .selectFrom('credit_card_transactions')
            .select('id')
            .where('company_id', '=', companyId)
            .where('id', '=', ref.id)
            .executeTakeFirst();
    if (!exists) throw notFound('Transaction not found');
    const { count } = await trx
      .selectFrom('attachments')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where(column(ref), '=', ref.id as never)
      .where((eb) => eb.or([eb('status', '=', 'UPLOADED'), eb('upload_expires_at', '>', now.toISOString())]))
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_ATTACHMENTS_PER_TRANSACTION) {
      throw conflict('The transaction already has the maximum number of attachments', [
        `a transaction holds at most ${MAX_ATTACHMENTS_PER_TRANSACTION} attachments`,
      ]);
    }
    const id = randomUUID();
    await trx
      .insertInto('attachments')
      .values({
        id,
        company_id: companyId,
        banking_transaction_id: ref.statement === 'banking' ? ref.id : null,
        credit_card_transaction_id: ref.statement === 'credit-card' ? ref.id : null,
        name: file.name,
        content_type: file.type,
        status: 'PENDING',
        size_bytes: null,
        sha256: null,
        created_at: now.toISOString(),
        upload_expires_at: expiresAt.toISOString(),
        uploaded_at: null,
      })
      .execute();
    return id;
  });
}

export async function findAttachment(db: Db, id: string): Promise<AttachmentRow | undefined> {
  return db.selectFrom('attachments').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Marks a pending attachment uploaded and its transaction as having attachments, in one
 * transaction; with `blob`, the content is stored in the database in that same transaction.
 * A concurrent upload that completed first makes this one a 409.
 */
export async function completeUpload(
  db: Db,
  attachment: AttachmentRow,
  content: { sha256: string; size: number; blob?: Buffer },
  now: Date,
  actor: Actor = PLATFORM,
): Promise<AttachmentRow> {
  return statementWriteTransaction(db, attachment.company_id, async (trx) => {
    if (content.blob) {
      await trx
        .insertInto('attachment_blobs')
        .values({
          sha256: content.sha256,
          content: content.blob,
          size_bytes: content.size,
          created_at: now.toISOString(),
        })
        .onConflict((oc) => oc.column('sha256').doNothing())
        .execute();
    }
    const updated = await trx
      .updateTable('attachments')
      .set({ status: 'UPLOADED', sha256: content.sha256, size_bytes: content.size, uploaded_at: now.toISOString() })
      .where('id', '=', attachment.id)
      .where('status', '=', 'PENDING')
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw conflict('The attachment was already uploaded', ['the attachment was already uploaded']);
    if (updated.banking_transaction_id !== null) {
      await trx
        .updateTable('banking_transactions')
        .set({ has_attachments: 1 })
        .where('id', '=', updated.banking_transaction_id)
        .execute();
    } else if (updated.credit_card_transaction_id !== null) {
      await trx
        .updateTable('credit_card_transactions')
        .set({ has_attachments: 1 })
        .where('id', '=', updated.credit_card_transaction_id)
        .execute();
    }
    await recordEvent(trx, now, {
      companyId: updated.company_id,
      type: 'attachment.created',
      ...actor,
      object: presentUploaded(updated, (await companyTimeZone(trx, updated.company_id)) ?? 'America/Sao_Paulo'),
    });
    // The transaction shows its attachments: it comes again in its statement's change feed.
    if (updated.banking_transaction_id !== null)
      await markChanged(trx, 'banking_transactions', updated.company_id, [updated.banking_transaction_id]);
    else if (updated.credit_card_transaction_id !== null)
      await markChanged(trx, 'credit_card_transactions', updated.company_id, [updated.credit_card_transaction_id]);
    return updated;
  });
}

/** An uploaded attachment of the company, or undefined. */
export async function findUploaded(db: Db, companyId: string, id: string): Promise<AttachmentRow | undefined> {
  return db
    .selectFrom('attachments')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .where('status', '=', 'UPLOADED')
    .executeTakeFirst();
}

export async function readDbBlob(db: Db, hash: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('attachment_blobs').select('content').where('sha256', '=', hash).executeTakeFirst();
  return row?.content;
}
