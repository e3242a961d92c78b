// The uploaded attachments of a statement row, oldest first, read in the row's own query as a JSON
// array (one query per page instead of one more for the page's attachments).
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../../db/database.js';
import { jsonArray, jsonArrayFrom } from '../../../db/dialect.js';
import type { Database } from '../../../db/database.js';

export interface AttachmentSummary {
  id: string;
  name: string;
  content_type: string;
}

type Statement = 'banking_transactions' | 'credit_card_transactions';
const COLUMN = {
  banking_transactions: 'a.banking_transaction_id',
  credit_card_transactions: 'a.credit_card_transaction_id',
} as const;

/**
 * The `attachments` column of a query over `statement as t`: a JSON array of the row's uploaded
 * attachments, or null, without running the subquery, when `has_attachments` says it has none.
 */
export function attachmentsOfRow<S extends Statement>(
  db: Db,
  statement: S,
  eb: ExpressionBuilder<Database & { t: Database[S] }, 't'>,
) {
  const row = eb as unknown as ExpressionBuilder<Database & { t: Database['banking_transactions'] }, 't'>;
  return row
    .case()
    .when('t.has_attachments', '=', 1)
    .then(
      jsonArrayFrom(
        db,
        row
          .selectFrom('attachments as a')
          .select(['a.id', 'a.name', 'a.content_type'])
          .whereRef(COLUMN[statement], '=', 't.id')
          .whereRef('a.company_id', '=', 't.company_id')
          .where('a.status', '=', 'UPLOADED')
          .orderBy('a.uploaded_at')
          .orderBy('a.id'),
      ),
    )
    .end()
    .as('attachments');
}

/** A row read with `attachmentsOfRow` as an item: its attachments parsed, in place. */
export function withAttachments<R extends { attachments: unknown }>(row: R) {
  const item = row as Omit<R, 'attachments'> & { attachments: AttachmentSummary[] };
  item.attachments = jsonArray<AttachmentSummary>(row.attachments);
  return item;
}
