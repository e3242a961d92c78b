// GET /accounts/v1/balance
import { defineHandlers } from '../../../kit/handler.js';
import { notFound } from '../../../kit/errors.js';
import { fromMinor } from '../../../lib/money.js';
import { formatInstant } from '../../../lib/time.js';
import { listAccounts } from './store.js';

export const handlers = defineHandlers({
  getAccountBalance: async ({ query }, { db, auth }) => {
    const accounts = await listAccounts(db, auth.companyId, query.accountId);
    if (query.accountId !== undefined && accounts.length === 0) throw notFound('Account not found');
    const asOf = formatInstant(auth.companyClock.now(), auth.timeZone);
    return {
      status: 200,
      body: {
        items: accounts.map((a) => ({
          accountId: a.id,
          name: a.name,
          bankCode: a.bank_code,
          bankName: a.bank_name,
          branch: a.branch,
          number: a.number,
          currency: a.currency,
          balance: fromMinor(a.balance_minor),
          blockedAmount: fromMinor(a.blocked_minor),
          availableAmount: fromMinor(a.balance_minor - a.blocked_minor),
          asOf,
        })),
      },
    };
  },
});
