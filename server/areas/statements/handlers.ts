// Statements: the banking and credit-card lists and the PATCH of their transactions.
import { defineHandlers } from '../../http/handler.js';
import { badRequest } from '../../http/errors.js';
import { decodeCursor, encodeCursor } from '../../http/cursor.js';
import { bankingPageQuery, dateRange } from './banking-query.js';
import { loadBankingPage } from './store/banking-page.js';
import { loadCreditCardPage } from './store/credit-card-page.js';
import { annotateTransaction } from './store/annotate.js';
import { userIdsByEmail } from './store/lookups.js';
import { presentBanking, presentCreditCard } from './present.js';
import { receiptHandlers } from './receipt-handlers.js';

export const handlers = defineHandlers({
  ...receiptHandlers,

  listBankingTransactions: async ({ query }, { db, auth, config }) => {
    const { page, scope, email } = bankingPageQuery(query, auth.companyId, auth.timeZone, config.secrets.cursor);
    if (email !== undefined) {
      page.filters.userIds = await userIdsByEmail(db, auth.companyId, email);
      if (page.filters.userIds.length === 0) return { status: 200, body: { transactions: [] } };
    }
    const { items, nextKey } = await loadBankingPage(db, page);
    return {
      status: 200,
      body: {
        transactions: items.map((t) => presentBanking(t, auth.timeZone)),
        ...(nextKey ? { nextPageStartKey: encodeCursor(config.secrets.cursor, scope, nextKey) } : {}),
      },
    };
  },

  listCreditCardTransactions: async ({ query }, { db, auth, config }) => {
    const cardIds = query.cardIds ? [...new Set(query.cardIds.map((id) => id.toLowerCase()))].sort() : undefined;
    const scope = { list: 'credit-card', cardIds, startDate: query.startDate, endDate: query.endDate };
    let after: [string, string] | undefined;
    if (query.nextPageStartKey !== undefined) {
      const [date, id] = decodeCursor(config.secrets.cursor, scope, query.nextPageStartKey);
      if (typeof date !== 'string' || typeof id !== 'string') throw badRequest('nextPageStartKey is invalid');
      after = [date, id];
    }
    const { items, nextKey } = await loadCreditCardPage(db, {
      companyId: auth.companyId,
      cardIds,
      ...dateRange(query.startDate, query.endDate, auth.timeZone),
      after,
      take: query.limit ?? 50,
    });
    return {
      status: 200,
      body: {
        transactions: items.map((t) => presentCreditCard(t, auth.timeZone)),
        ...(nextKey ? { nextPageStartKey: encodeCursor(config.secrets.cursor, scope, nextKey) } : {}),
      },
    };
  },

  reconcileBankingTransaction: async ({ params, body }, { db, auth, clock, requestId }) => {
    await annotateTransaction(db, 'banking_transactions', auth.companyId, params.transactionId, body, clock.now(), { timeZone: auth.timeZone, requestId });
    return { status: 204 };
  },

  reconcileCreditCardTransaction: async ({ params, body }, { db, auth, clock, requestId }) => {
    await annotateTransaction(db, 'credit_card_transactions', auth.companyId, params.transactionId, body, clock.now(), { timeZone: auth.timeZone, requestId });
    return { status: 204 };
  },
});
