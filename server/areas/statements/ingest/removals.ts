// An ingest line that drops a pending transaction the provider reported gone (an authorization that
// expired or was reversed before it settled): `{"statement": "banking", "remove": 48213}` or
// `{"statement": "credit-card", "remove": "01JD…"}`. Checked with the file's other lines before
// anything is written (the id must be a PENDING transaction of the company, or one already removed:
// re-ingesting a file is harmless), then removed in the run's closing transaction (store/remove.ts).
import { PLATFORM } from '../../../kit/handler.js';
import type { Db } from '../../../db/database.js';
import { findBankingItem } from '../store/banking-page.js';
import { findCreditCardItem } from '../store/credit-card-page.js';
import { removeBankingTransaction, removeCreditCardTransaction } from '../store/remove.js';

export type Removal = { line: number } & (
  | { statement: 'banking'; id: number }
  | { statement: 'credit-card'; id: string }
);

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
const SHAPE = 'a removal line is {"statement": "banking" | "credit-card", "remove": <the transaction id>}';

/** The removal a line asks for, or the problem with it. */
export function parseRemoval(line: number, value: Record<string, unknown>): Removal | string {
  const { statement, remove, ...extra } = value;
  if (Object.keys(extra).length > 0) return SHAPE;
  if (statement === 'banking' && Number.isSafeInteger(remove) && (remove as number) > 0)
    return { line, statement, id: remove as number };
  if (statement === 'credit-card' && typeof remove === 'string' && ULID.test(remove))
    return { line, statement, id: remove.toUpperCase() };
  return SHAPE;
}

/** Which removals are still to do (the others were done by an earlier ingest), or their problems. */
export async function checkRemovals(
  db: Db,
  companyId: string,
  removals: Removal[],
  report: (line: number, message: string) => void,
): Promise<Removal[]> {
  const todo: Removal[] = [];
  const seen = new Set<string>();
  for (const r of removals) {
    const key = `${r.statement}:${r.id}`;
    if (seen.has(key)) {
      report(r.line, `transaction ${r.id} is removed on an earlier line of the file`);
      continue;
    }
    seen.add(key);
    const item =
      r.statement === 'banking'
        ? await findBankingItem(db, companyId, r.id)
        : await findCreditCardItem(db, companyId, r.id);
    if (item) {
      if (item.status === 3) todo.push(r);
      else report(r.line, `transaction ${r.id} is not pending: only a PENDING transaction can be removed`);
      continue;
    }
    const column = r.statement === 'banking' ? 'banking_transaction_id' : 'credit_card_transaction_id';
    const gone = await db
      .selectFrom('statement_removals')
      .select('change_seq')
      .where('company_id', '=', companyId)
      .where(column, '=', r.id as never)
      .executeTakeFirst();
    if (!gone) report(r.line, `transaction ${r.id} is not a ${r.statement} transaction of the company`);
  }
  return todo;
}

/** Removes them, in the run's closing transaction. */
export async function applyRemovals(
  trx: Db,
  companyId: string,
  removals: Removal[],
  at: { now: Date; timeZone: string },
): Promise<void> {
  const context = { companyId, now: at.now, timeZone: at.timeZone, actor: PLATFORM };
  for (const r of removals)
    if (r.statement === 'banking') await removeBankingTransaction(trx, r.id, context);
    else await removeCreditCardTransaction(trx, r.id, context);
}
