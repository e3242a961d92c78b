// POST /accounting/v1/syncs: what the company's ERP did with transactions of one statement, recorded
// on each (its `accountingSync`). All or nothing in one transaction: every transaction is read before
// anything is written, and one that is not the company's fails the call. A transaction whose state
// changes is a change like a PATCH's: an `…updated` event, its place in the feed, a new ETag; one
// that already shows what the call records is left as it is.
import type { Actor } from '../../../kit/handler.js';
import type { Db } from '../../../db/database.js';
import { badRequest } from '../../../kit/errors.js';
import type { AuditWrite } from '../../audit/public.js';
import { changedAttributes, recordEvent } from '../../events/public.js';
import { presentBanking, presentCreditCard } from '../present.js';
import type { AccountingSyncStatus } from '../tables.js';
import { markChanged, statementWriteTransaction } from '../versions.js';
import { type BankingItem, findBankingItem } from './banking-page.js';
import { type CreditCardItem, findCreditCardItem } from './credit-card-page.js';

type TransactionId = number | string;

interface AccountingSyncInput {
  statement: 'banking' | 'credit-card';
  successful?: Array<{ id: TransactionId; referenceId: string }>;
  failed?: Array<{ id: TransactionId; error: { message: string } }>;
  unsynced?: Array<{ id: TransactionId }>;
}

interface SyncState {
  sync_status: AccountingSyncStatus;
  sync_reference_id: string | null;
  sync_error: string | null;
}

/** One transaction of the call: where the body names it, and the state it is to have. */
interface Entry {
  param: string;
  id: TransactionId;
  state: SyncState;
}

const LISTS = ['successful', 'failed', 'unsynced'] as const;

function entriesOf(input: AccountingSyncInput): Entry[] {
  const state = {
    successful: (e: { id: TransactionId; referenceId?: string }) => ({
      sync_status: 'SYNCED' as const,
      sync_reference_id: e.referenceId ?? null,
      sync_error: null,
    }),
    failed: (e: { id: TransactionId; error?: { message: string } }) => ({
      sync_status: 'FAILED' as const,
      sync_reference_id: null,
      sync_error: e.error?.message ?? null,
    }),
    unsynced: () => ({ sync_status: 'NOT_SYNCED' as const, sync_reference_id: null, sync_error: null }),
  };
  return LISTS.flatMap((list) =>
    (input[list] ?? []).map((e, i) => ({ param: `${list}.${i}.id`, id: e.id, state: state[list](e) })),
  );
}

/** The ids' problems the schema cannot see: an id of the other statement's kind, one named twice. */
function checkIds(statement: AccountingSyncInput['statement'], entries: Entry[]): void {
  const problems: Array<[string, string]> = [];
  const seen = new Map<string, string>();
  for (const { param, id } of entries) {
    if (statement === 'banking' && typeof id !== 'number')
      problems.push([param, `${id} is not a banking transaction id (an integer)`]);
    if (statement === 'credit-card' && typeof id !== 'string')
      problems.push([param, `${id} is not a credit-card transaction id (a ULID)`]);
    const key = String(id).toUpperCase();
    const first = seen.get(key);
    if (first !== undefined) problems.push([param, `${id} is already ${first}: a transaction at most once per call`]);
    else seen.set(key, param);
  }
  if (entries.length === 0)
    problems.push(['successful', 'send at least one transaction in successful, failed or unsynced']);
  const [first] = problems;
  if (first)
    throw badRequest(
      `${first[0]}: ${first[1]}; nothing was recorded`,
      problems.map(([p, text]) => `${p}: ${text}`),
      {
        reason: 'invalid_value',
        param: first[0],
      },
    );
}

const same = (row: SyncState, state: SyncState) =>
  row.sync_status === state.sync_status &&
  row.sync_reference_id === state.sync_reference_id &&
  row.sync_error === state.sync_error;

/** Records the call; answers how many transactions it moved to each state and how many changed. */
export async function recordAccountingSync(
  db: Db,
  companyId: string,
  input: AccountingSyncInput,
  now: Date,
  context: { timeZone: string; actor: Actor; audit: AuditWrite },
): Promise<{ changed: number }> {
  const entries = entriesOf(input);
  checkIds(input.statement, entries);
  const banking = input.statement === 'banking';
  const table = banking ? 'banking_transactions' : 'credit_card_transactions';
  const present = (item: BankingItem | CreditCardItem) =>
    (banking
      ? presentBanking(item as BankingItem, context.timeZone)
      : presentCreditCard(item as CreditCardItem, context.timeZone)) as unknown as Record<string, unknown>;

  return statementWriteTransaction(db, companyId, async (trx) => {
    const found: Array<{ entry: Entry; item: BankingItem | CreditCardItem }> = [];
    const unknown: Entry[] = [];
    for (const entry of entries) {
      const item = banking
        ? await findBankingItem(trx, companyId, entry.id as number)
        : await findCreditCardItem(trx, companyId, String(entry.id).toUpperCase());
      if (item) found.push({ entry, item });
      else unknown.push(entry);
    }
    const [missing] = unknown;
    if (missing)
      throw badRequest(
        `${missing.param}: ${missing.id} is not a ${input.statement} transaction of the company; nothing was recorded`,
        unknown.map((e) => `${e.param}: ${e.id} is not a ${input.statement} transaction of the company`),
        { reason: 'unknown_reference', param: missing.param },
      );

    let changed = 0;
    const syncedAt = now.toISOString();
    for (const { entry, item } of found) {
      if (same(item, entry.state)) continue;
      const columns = { ...entry.state, synced_at: entry.state.sync_status === 'NOT_SYNCED' ? null : syncedAt };
      const before = present(item);
      const after = present({ ...item, ...columns });
      await recordEvent(trx, now, {
        companyId,
        type: banking ? 'banking_transaction.updated' : 'credit_card_transaction.updated',
        ...context.actor,
        object: after,
        previousAttributes: changedAttributes(before, after),
      });
      await markChanged(trx, table, companyId, [item.id], columns);
      changed += 1;
    }
    await context.audit(trx, input.statement, {
      successful: input.successful?.length ?? 0,
      failed: input.failed?.length ?? 0,
      unsynced: input.unsynced?.length ?? 0,
      changed,
    });
    return { changed };
  });
}
