// GET /credit-cards/v1/bills and /credit-cards/v1/bills/{dueDate}
import type { components } from '../../../../generated/openapi.js';
import { defineHandlers } from '../../../kit/handler.js';
import { notFound } from '../../../kit/errors.js';
import { paging } from '../../../kit/paging.js';
import { fromMinor } from '../../../lib/money.js';
import type { BillRow } from '../tables.js';
import { formatInstant, localDate } from '../../../lib/time.js';
import { presentCreditCard } from '../present.js';
import { loadBillTransactions } from '../store/credit-card-page.js';
import { billStatus } from './cycle.js';
import { findBill, listBills } from './store.js';

const presentBill = (b: BillRow, today: string, timeZone: string): components['schemas']['Bill'] => ({
  dueDate: b.due_date,
  closingDate: b.closing_date,
  totalAmount: fromMinor(b.total_minor),
  currency: 'BRL',
  status: billStatus(b, today),
  paidAt: b.paid_at === null ? null : formatInstant(b.paid_at, timeZone),
});

export const handlers = defineHandlers({
  listBills: async ({ query }, { db, auth, config, index }) => {
    const page = paging('listBills', { auth, config, index }, query, {}, ['string']);
    const rows = await listBills(db, auth.companyId, page.limit + 1, page.after?.[0]);
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.due_date]);
    const today = localDate(auth.companyClock.now(), auth.timeZone);
    return {
      status: 200,
      body: {
        items: items.map((b) => presentBill(b, today, auth.timeZone)),
        ...(nextPageStartKey ? { nextPageStartKey } : {}),
      },
    };
  },

  getBill: async ({ params }, { db, auth }) => {
    const bill = await findBill(db, auth.companyId, params.dueDate);
    if (!bill) throw notFound('No bill is due on this date');
    const transactions = await loadBillTransactions(db, auth.companyId, bill.due_date);
    return {
      status: 200,
      body: {
        ...presentBill(bill, localDate(auth.companyClock.now(), auth.timeZone), auth.timeZone),
        transactions: transactions.map((t) => presentCreditCard(t, auth.timeZone)),
      },
    };
  },
});
