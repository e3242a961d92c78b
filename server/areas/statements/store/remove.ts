// A pending transaction the provider drops (an authorization that expired, or was reversed before it
// settled) leaves its statement: its row and its attachments are deleted, its pending debit no longer
// blocks its account's balance, and its id is kept in `statement_removals` with the change number of
// the removal, so the change feeds answer it once in `removed`; the `*.removed` event carries it as it
// was last shown. Only a PENDING transaction can be dropped: a PROCESSED or CANCELED one is final (409).
import type { Actor } from '../../../kit/handler.js';
import type { Db } from '../../../db/database.js';
import { conflict, notFound } from '../../../kit/errors.js';
import { recordEvent } from '../../events/public.js';
import { STATUS_NAMES, presentBanking, presentCreditCard } from '../present.js';
import { nextStatementVersion, statementWriteTransaction } from '../versions.js';
import { findBankingItem } from './banking-page.js';
import { findCreditCardItem } from './credit-card-page.js';

const PENDING = 3;

interface Removal {
  companyId: string;
  /** The company's instant. */
  now: Date;
  timeZone: string;
  /** Who removed it: the request and its client; the platform's for an ingest. */
  actor: Actor;
}

const notPending = (status: 1 | 2 | 3) =>
  conflict(
    'Only a pending transaction can be removed',
    [`the transaction is ${STATUS_NAMES[status]}: only a PENDING one can be dropped by the provider`],
    { param: 'transactionId' },
  );

/** Removes the company's pending banking transaction `id` (in `trx`, or a transaction of its own). */
export async function removeBankingTransaction(db: Db, id: number, r: Removal): Promise<void> {
  await statementWriteTransaction(db, r.companyId, async (trx) => {
    const item = await findBankingItem(trx, r.companyId, id);
    if (!item) throw notFound('Transaction not found');
    if (item.status !== PENDING) throw notPending(item.status);
    const object = presentBanking(item, r.timeZone);
    const version = await nextStatementVersion(trx, r.companyId);
    await trx
      .insertInto('statement_removals')
      .values({
        company_id: r.companyId,
        banking_transaction_id: id,
        credit_card_transaction_id: null,
        account_id: item.account_id,
        card_id: null,
        change_seq: version,
        removed_at: r.now.toISOString(),
      })
      .execute();
    await trx.deleteFrom('attachments').where('banking_transaction_id', '=', id).execute();
    await trx.deleteFrom('banking_transactions').where('company_id', '=', r.companyId).where('id', '=', id).execute();
    if (item.sub_type === 'DEBIT')
      await trx
        .updateTable('accounts')
        .set((eb) => ({
          blocked_minor: eb('blocked_minor', '-', item.total_amount_minor),
          updated_at: r.now.toISOString(),
        }))
        .where('id', '=', item.account_id)
        .execute();
    await recordEvent(trx, r.now, {
      companyId: r.companyId,
      type: 'banking_transaction.removed',
      ...r.actor,
      object,
    });
  });
}

/** Removes the company's pending credit-card transaction `id` (a pending record is on no bill's total). */
export async function removeCreditCardTransaction(db: Db, id: string, r: Removal): Promise<void> {
  await statementWriteTransaction(db, r.companyId, async (trx) => {
    const item = await findCreditCardItem(trx, r.companyId, id);
    if (!item) throw notFound('Transaction not found');
    if (item.status !== PENDING) throw notPending(item.status);
    const object = presentCreditCard(item, r.timeZone);
    const version = await nextStatementVersion(trx, r.companyId);
    await trx
      .insertInto('statement_removals')
      .values({
        company_id: r.companyId,
        banking_transaction_id: null,
        credit_card_transaction_id: item.id,
        account_id: null,
        card_id: item.card_id,
        change_seq: version,
        removed_at: r.now.toISOString(),
      })
      .execute();
    await trx.deleteFrom('attachments').where('credit_card_transaction_id', '=', item.id).execute();
    await trx
      .deleteFrom('credit_card_transactions')
      .where('company_id', '=', r.companyId)
      .where('id', '=', item.id)
      .execute();
    await recordEvent(trx, r.now, {
      companyId: r.companyId,
      type: 'credit_card_transaction.removed',
      ...r.actor,
      object,
    });
  });
}
