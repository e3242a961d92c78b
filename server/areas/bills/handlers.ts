// GET /credit-cards/v1/bills and /credit-cards/v1/bills/{dueDate}
import type { components } from '../../../generated/openapi.js';
import { defineHandlers } from '../../http/handler.js';
import { badRequest, notFound } from '../../http/errors.js';
import { decodeCursor, pageOf } from '../../http/cursor.js';
import { fromMinor } from '../../lib/money.js';
import type { BillRow } from '../statements/tables.js';
import { formatInstant, localDate } from '../statements/time.js';
import { presentCreditCard } from '../statements/present.js';
import { loadBillTransactions } from '../statements/store/credit-card-page.js';
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

const SCOPE = { list: 'bills' };

export const handlers = defineHandlers({
  listBills: async ({ query }, { db, auth, clock, config }) => {
    const take = query.limit ?? 50;
    let before: string | undefined;
    if (query.nextPageStartKey !== undefined) {
      const [key] = decodeCursor(config.secrets.cursor, SCOPE, query.nextPageStartKey);
      if (typeof key !== 'string') throw badRequest('nextPageStartKey is invalid');
      before = key;
    }
    const rows = await listBills(db, auth.companyId, take + 1, before);
    const { items, nextPageStartKey } = pageOf(config.secrets.cursor, SCOPE, rows, take, (last) => [last.due_date]);
    const today = localDate(clock.now(), auth.timeZone);
    return {
      status: 200,
      body: { items: items.map((b) => presentBill(b, today, auth.timeZone)), ...(nextPageStartKey ? { nextPageStartKey } : {}) },
    };
  },

  getBill: async ({ params }, { db, auth, clock }) => {
    const bill = await findBill(db, auth.companyId, params.dueDate);
    if (!bill) throw notFound('No bill is due on this date');
    const transactions = await loadBillTransactions(db, auth.companyId, bill.due_date);
    return {
      status: 200,
      body: {
        ...presentBill(bill, localDate(clock.now(), auth.timeZone), auth.timeZone),
        transactions: transactions.map((t) => presentCreditCard(t, auth.timeZone)),
      },
    };
  },
});
