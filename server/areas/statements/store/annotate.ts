// PATCH of a banking or credit-card transaction: notes, category, cost center, reconciliation.
// Read, check and write happen in one transaction, so concurrent PATCHes of one row serialize and
// every field of a request applies together or not at all. A field set to the value it has is no
// change: a write that changes nothing records no event, puts nothing in the feed and keeps every
// ETag. A batch item's `ifMatch` is checked against the item as its GET shows it, in the same transaction.
import type { Actor } from '../../../kit/handler.js';
import type { Db } from '../../../db/database.js';
import { ApiError, badRequest, type ErrorReason, notFound } from '../../../kit/errors.js';
import { STATUS_NAMES, presentBanking, presentCreditCard } from '../present.js';
import { changedAttributes, recordEvent } from '../../events/public.js';
import { itemETag } from '../../../kit/item-etag.js';
import { categoryNames, costCenterNames } from '../../directory/public.js';
import { type BankingItem, findBankingItem } from './banking-page.js';
import { type CreditCardItem, findCreditCardItem } from './credit-card-page.js';
import { BANKING_DOCUMENT, CREDIT_CARD_DOCUMENT, signatureColumns } from './search.js';
import type { SearchDocument } from '../../../db/dialect.js';
import { markChanged, statementWriteTransaction } from '../versions.js';
import type { AccountingSyncStatus } from '../tables.js';
import { mergedMetadata, POSTED_COLUMNS } from './erp-state.js';

interface TransactionPatch {
  /** A batch item's precondition: the item's ETag as its GET answers it. */
  ifMatch?: string;
  notes?: string;
  isConciled?: boolean;
  categoryId?: number;
  costCenterId?: string;
  /** Merged into the row's: a key sent as null is removed. */
  metadata?: Record<string, string | null>;
}

/** A transaction holds at most this many metadata keys (the contract's `TransactionMetadata`). */
const METADATA_KEYS = 50;

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
  search_sig_lo?: number;
  search_sig_hi?: number;
  metadata: string;
  sync_status: AccountingSyncStatus;
}
type Statement = 'banking_transactions' | 'credit_card_transactions';

/** Who changes the transaction: the company's time zone shapes the event's object; the request id goes on the event. */
interface ChangeContext {
  timeZone: string;
  actor: Actor;
}

type Shown = Record<string, unknown>;
type Item = BankingItem | CreditCardItem;

/** The transaction as its GET reads it (its row, with the names it shows), how the API shows it, and its search document. */
async function current(
  db: Db,
  statement: Statement,
  companyId: string,
  id: number | string,
  timeZone: string,
): Promise<{ row: Item; present: (item: Item) => Shown; document: SearchDocument } | undefined> {
  if (statement === 'banking_transactions') {
    const item = await findBankingItem(db, companyId, Number(id));
    const present = (shown: Item) => presentBanking(shown as BankingItem, timeZone) as unknown as Shown;
    return item && { row: item, present, document: BANKING_DOCUMENT };
  }
  const item = await findCreditCardItem(db, companyId, String(id));
  const present = (shown: Item) => presentCreditCard(shown as CreditCardItem, timeZone) as unknown as Shown;
  return item && { row: item, present, document: CREDIT_CARD_DOCUMENT };
}

/** Why one transaction cannot be changed: what the single PATCH answers for it. */
interface Refusal {
  status: 400 | 404 | 409 | 412;
  message: string;
  /** The field at fault, as the body names it. */
  field: string;
  reason?: ErrorReason;
  /** One per problem. */
  details: Array<{ field: string; text: string }>;
}

/** A PATCH's change to one row: the columns that differ, and the transaction as shown before and after it. */
interface Plan {
  changes: Partial<Annotatable>;
  reconcile: boolean;
  before: Shown;
  after: Shown;
}

/**
 * What a PATCH changes of one row, or why it cannot. Reads only, the item once (as its GET does):
 * its ETag for `ifMatch`, its columns for the plan, what it shows for the event's previous
 * attributes; and the names of a new category or cost center, with which it shows the item after.
 */
async function planAnnotation(
  trx: Db,
  statement: Statement,
  companyId: string,
  id: number | string,
  patch: TransactionPatch,
  now: Date,
  timeZone: string,
): Promise<Plan | Refusal> {
  const item = await current(trx, statement, companyId, id, timeZone);
  if (!item)
    return {
      status: 404,
      message: 'Transaction not found',
      field: 'id',
      details: [{ field: 'id', text: 'transaction not found' }],
    };

  const { row, present, document } = item;
  const before = present(row);
  if (patch.ifMatch !== undefined) {
    const tag = itemETag(before);
    if (patch.ifMatch.trim() !== tag)
      return {
        status: 412,
        message: 'The transaction changed since the ETag you sent; read it again',
        field: 'ifMatch',
        reason: 'precondition_failed',
        details: [{ field: 'ifMatch', text: `the current ETag is ${tag}` }],
      };
  }

  const problems: Array<{ field: string; text: string }> = [];
  const categoryName =
    patch.categoryId === undefined
      ? undefined
      : (await categoryNames(trx, companyId, [patch.categoryId])).get(String(patch.categoryId));
  if (patch.categoryId !== undefined && categoryName === undefined)
    problems.push({ field: 'categoryId', text: `${patch.categoryId} is not a category of the company` });
  const costCenterName =
    patch.costCenterId === undefined
      ? undefined
      : (await costCenterNames(trx, companyId, [patch.costCenterId])).get(patch.costCenterId);
  if (patch.costCenterId !== undefined && costCenterName === undefined)
    problems.push({ field: 'costCenterId', text: `${patch.costCenterId} is not a cost center of the company` });
  const [firstProblem] = problems;
  if (firstProblem)
    return {
      status: 400,
      message:
        problems.length === 1 ? `${firstProblem.field}: ${firstProblem.text}` : 'Unknown category and cost center',
      field: firstProblem.field,
      reason: 'unknown_reference',
      details: problems,
    };

  const metadata = patch.metadata === undefined ? undefined : mergedMetadata(row.metadata, patch.metadata);
  if (metadata !== undefined && Object.keys(JSON.parse(metadata)).length > METADATA_KEYS)
    return {
      status: 400,
      message: `metadata: a transaction holds at most ${METADATA_KEYS} keys`,
      field: 'metadata',
      reason: 'invalid_value',
      details: [
        {
          field: 'metadata',
          text: `the change leaves ${Object.keys(JSON.parse(metadata)).length} keys; at most ${METADATA_KEYS} are kept`,
        },
      ],
    };

  const reconcile = patch.isConciled === true && row.conciled === 0;
  if (reconcile && row.status !== 2)
    return {
      status: 409,
      message: 'The transaction cannot be reconciled',
      field: 'isConciled',
      details: [
        {
          field: 'isConciled',
          text: `only processed transactions (status 2) can be reconciled; this one is ${STATUS_NAMES[row.status]}`,
        },
      ],
    };
  // Only what differs from the row: setting a field to its value changes nothing.
  const sameCostCenter = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();
  const changes: Partial<Annotatable> = {
    // New notes, a new search document: its signature is written with them.
    ...(patch.notes !== undefined && patch.notes !== row.notes
      ? { notes: patch.notes, ...signatureColumns(document, { ...row, notes: patch.notes }) }
      : {}),
    ...(patch.categoryId !== undefined && patch.categoryId !== Number(row.custom_category_id ?? Number.NaN)
      ? { custom_category_id: patch.categoryId }
      : {}),
    ...(patch.costCenterId !== undefined && !sameCostCenter(row.cost_center_id, patch.costCenterId)
      ? { cost_center_id: patch.costCenterId }
      : {}),
    ...(reconcile ? { conciled: 1, conciled_at: now.toISOString() } : {}),
    ...(metadata !== undefined && metadata !== row.metadata ? { metadata } : {}),
  };
  // What the ERP posted changed after it posted it: it has to post it again.
  if (row.sync_status === 'SYNCED' && POSTED_COLUMNS.some((column) => column in changes))
    changes.sync_status = 'OUT_OF_DATE';
  // The item as its GET will read it once written: the changed columns, and the names they join.
  const after =
    Object.keys(changes).length === 0
      ? before
      : present({
          ...row,
          ...changes,
          ...('custom_category_id' in changes ? { custom_category_name: categoryName ?? null } : {}),
          ...('cost_center_id' in changes ? { cost_center_name: costCenterName ?? null } : {}),
        } as Item);
  return { changes, reconcile, before, after };
}

const isRefusal = (plan: Awaited<ReturnType<typeof planAnnotation>>): plan is Refusal => 'status' in plan;

/** Writes a planned change, with its event and its place in the change feed. */
async function applyAnnotation(
  trx: Db,
  statement: Statement,
  companyId: string,
  id: number | string,
  { changes, reconcile, before, after }: Plan,
  now: Date,
  context: ChangeContext,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  // One event per change: a PATCH that reconciles is a reconciliation (notes may change with it).
  const object = statement === 'banking_transactions' ? 'banking_transaction' : 'credit_card_transaction';
  await recordEvent(trx, now, {
    companyId,
    type: `${object}.${reconcile ? 'reconciled' : 'updated'}`,
    ...context.actor,
    object: after,
    previousAttributes: changedAttributes(before, after),
  });
  // The row's change and its place in the feed, in one UPDATE, last (markChanged).
  await markChanged(trx, statement, companyId, [id], changes);
}

const undoRefused = () =>
  badRequest('Reconciliation cannot be undone: isConciled accepts only true', ['isConciled: only true is accepted'], {
    param: 'isConciled',
  });

export async function annotateTransaction(
  db: Db,
  statement: Statement,
  companyId: string,
  id: number | string,
  patch: TransactionPatch,
  now: Date,
  context: ChangeContext,
): Promise<void> {
  if (patch.isConciled === false) throw undoRefused();
  await statementWriteTransaction(db, companyId, async (trx) => {
    const plan = await planAnnotation(trx, statement, companyId, id, patch, now, context.timeZone);
    if (isRefusal(plan)) {
      if (plan.status === 404) throw notFound(plan.message);
      // The single PATCH's details: `field: problem` for an unknown reference, the problem alone for a conflict.
      const details = plan.details.map(({ field, text }) => (plan.status === 400 ? `${field}: ${text}` : text));
      throw new ApiError(plan.status, plan.message, details, {}, { reason: plan.reason, param: plan.field });
    }
    await applyAnnotation(trx, statement, companyId, id, plan, now, context);
  });
}

/**
 * The batch PATCH: every item under the single PATCH's rules, all or nothing in one transaction.
 * Every item is checked before anything is written; when any fails, the error is the status of the
 * first failure and its details name every failing item (`transactions.3.costCenterId: …`).
 */
export async function annotateTransactions(
  db: Db,
  statement: Statement,
  companyId: string,
  items: Array<TransactionPatch & { id: number | string }>,
  now: Date,
  context: ChangeContext,
): Promise<void> {
  const firstIndex = new Map<string, number>();
  const duplicates = items.flatMap((item, index) => {
    const key = String(item.id).toUpperCase();
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, index);
    return first === undefined ? [] : [`transactions.${index}.id: ${item.id} is already item ${first} of the batch`];
  });
  if (duplicates.length > 0)
    throw badRequest(`A transaction appears twice in the batch: ${duplicates[0]}`, duplicates, {
      reason: 'invalid_value',
      param: duplicates[0]!.split(':')[0]!,
    });
  const undo = items.findIndex((item) => item.isConciled === false);
  if (undo >= 0) throw undoRefused();

  await statementWriteTransaction(db, companyId, async (trx) => {
    const plans = [];
    const refusals: Array<{ index: number; refusal: Refusal }> = [];
    for (const [index, { id, ...patch }] of items.entries()) {
      const plan = await planAnnotation(trx, statement, companyId, id, patch, now, context.timeZone);
      if (isRefusal(plan)) refusals.push({ index, refusal: plan });
      else plans.push({ id, plan });
    }
    const first = refusals[0];
    if (first) {
      const { index, refusal } = first;
      throw new ApiError(
        refusal.status,
        `transactions.${index}: ${refusal.message[0]!.toLowerCase()}${refusal.message.slice(1)}; nothing was changed`,
        refusals.flatMap(({ index: at, refusal: r }) =>
          r.details.map(({ field, text }) => `transactions.${at}.${field}: ${text}`),
        ),
        {},
        { reason: refusal.reason, param: `transactions.${index}.${refusal.field}` },
      );
    }
    for (const { id, plan } of plans) await applyAnnotation(trx, statement, companyId, id, plan, now, context);
  });
}
