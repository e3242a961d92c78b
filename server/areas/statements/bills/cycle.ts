// The billing cycle of the company's cards: bills are due on day 10 and close 7 days earlier (day 3).
// A purchase made up to and including a closing date (company time zone) is charged on that bill;
// installment n of a purchase falls n - 1 bills later.
import { addDays, addMonths } from '../../../lib/time.js';

const DUE_DAY = 10;
const CLOSING_DAYS_BEFORE_DUE = 7;

export const closingDateOf = (dueDate: string) => addDays(dueDate, -CLOSING_DAYS_BEFORE_DUE);

/** The due date of the bill that charges a purchase made on `purchaseDate` (installment `n`, from 1). */
export function billDueDate(purchaseDate: string, installment = 1): string {
  const dueThisMonth = `${purchaseDate.slice(0, 8)}${String(DUE_DAY).padStart(2, '0')}`;
  const first = purchaseDate <= closingDateOf(dueThisMonth) ? dueThisMonth : addMonths(dueThisMonth, 1);
  return addMonths(first, installment - 1);
}

type BillStatus = 'OPEN' | 'CLOSED' | 'PAID' | 'OVERDUE';

export function billStatus(
  bill: { due_date: string; closing_date: string; paid_at: string | null },
  today: string,
): BillStatus {
  if (bill.paid_at !== null) return 'PAID';
  if (today <= bill.closing_date) return 'OPEN';
  if (today <= bill.due_date) return 'CLOSED';
  return 'OVERDUE';
}
