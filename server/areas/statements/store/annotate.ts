// PATCH of a banking or credit-card transaction: notes, category, cost center, reconciliation.
// Read, check and write happen in one transaction, so concurrent PATCHes of one row serialize and
// every field of a request applies together or not at all.
import type { Kysely } from 'kysely';
import type { Db } from '../../../db/database.js';
import { badRequest, conflict, notFound } from '../../../http/errors.js';
import { writeTransaction } from '../../../db/transaction.js';
import { STATUS_NAMES, presentBanking, presentCreditCard } from '../present.js';
import { changedAttributes, recordEvent } from '../../../db/event-log.js';
import { categoryIdsIn, costCenterIdsIn } from '../../../db/references.js';
import { findBankingItem } from './banking-page.js';
import { findCreditCardItem } from './credit-card-page.js';

interface TransactionPatch {
  notes?: string;
  isConciled?: boolean;
  categoryId?: number;
  costCenterId?: string;
}

/** The columns both statements share for annotation. */
interface Annotatable {
  id: number | string;
  company_id: string;
  status: 1 | 2 | 3;
  notes: string;
  conciled: number;
  conciled_at: string | null;
  custom_category_id: number | null;
  cost_center_id: string | null;
}
type Statement = 'banking_transactions' | 'credit_card_transactions';
type View = Kysely<Record<Statement, Annotatable>>;

/** Who changes the transaction: the company's time zone shapes the event's object; the request id goes on the event. */
interface ChangeContext {
  timeZone: string;
  requestId: string;
}

/** The transaction as the API shows it. */
async function shown(db: Db, statement: Statement, companyId: string, id: number | string, timeZone: string) {
  if (statement === 'banking_transactions') {
    const item = await findBankingItem(db, companyId, Number(id));
    return item && (presentBanking(item, timeZone) as unknown as Record<string, unknown>);
  }
  const item = await findCreditCardItem(db, companyId, String(id));
  return item && (presentCreditCard(item, timeZone) as unknown as Record<string, unknown>);
}

export async function annotateTransaction(
  db: Db,
  statement: Statement,
  companyId: string,
  id: number | string,
  patch: TransactionPatch,
  now: Date,
  context: ChangeContext,
): Promise<void> {
  if (patch.isConciled === false) {
    throw badRequest('Reconciliation cannot be undone: isConciled accepts only true', [
      'isConciled: only true is accepted',
    ]);
  }
  await writeTransaction(db, async (trx) => {
    const view = trx as unknown as View;
    const row = await view
      .selectFrom(statement)
      .select(['status', 'conciled'])
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('Transaction not found');

    const problems: Array<{ param: string; message: string }> = [];
    if (patch.categoryId !== undefined && (await categoryIdsIn(trx, companyId, [patch.categoryId])).size === 0)
      problems.push({
        param: 'categoryId',
        message: `categoryId ${patch.categoryId} is not a category of the company`,
      });
    if (patch.costCenterId !== undefined && (await costCenterIdsIn(trx, companyId, [patch.costCenterId])).size === 0)
      problems.push({
        param: 'costCenterId',
        message: `costCenterId ${patch.costCenterId} is not a cost center of the company`,
      });
    if (problems.length > 0)
      throw badRequest(
        problems.length === 1 ? problems[0]!.message : 'Unknown category and cost center',
        problems.map((p) => p.message),
        { reason: 'unknown_reference', param: problems[0]!.param },
      );

    const reconcile = patch.isConciled === true && row.conciled === 0;
    if (reconcile && row.status !== 2) {
      throw conflict('The transaction cannot be reconciled', [
        `only processed transactions (status 2) can be reconciled; this one is ${STATUS_NAMES[row.status]}`,
      ]);
    }
    const changes: Partial<Annotatable> = {
      ...(patch.notes !== undefined ? { notes: patch.notes } : {}),
      ...(patch.categoryId !== undefined ? { custom_category_id: patch.categoryId } : {}),
      ...(patch.costCenterId !== undefined ? { cost_center_id: patch.costCenterId } : {}),
      ...(reconcile ? { conciled: 1, conciled_at: now.toISOString() } : {}),
    };
    if (Object.keys(changes).length === 0) return;
    const before = await shown(trx, statement, companyId, id, context.timeZone);
    await view.updateTable(statement).set(changes).where('company_id', '=', companyId).where('id', '=', id).execute();
    const after = await shown(trx, statement, companyId, id, context.timeZone);
    if (!before || !after) throw new Error(`transaction ${id} vanished during its update`);
    // One event per change: a PATCH that reconciles is a reconciliation (notes may change with it).
    const object = statement === 'banking_transactions' ? 'banking_transaction' : 'credit_card_transaction';
    await recordEvent(trx, now, {
      companyId,
      type: `${object}.${reconcile ? 'reconciled' : 'updated'}`,
      requestId: context.requestId,
      object: after,
      previousAttributes: changedAttributes(before, after),
    });
  });
}
