// Statements: the banking and credit-card lists and the PATCH of their transactions.
import { defineHandlers, type HandlerContext } from '../../kit/handler.js';
import { badRequest, notFound } from '../../kit/errors.js';
import { assertCardWindow } from './card-types.js';
import { paging } from '../../kit/paging.js';
import { bankingPageQuery } from './banking-query.js';
import { creditCardQuery } from './credit-card-query.js';
import { findBankingItem, loadBankingPage } from './store/banking-page.js';
import { findCreditCardItem, loadCreditCardPage } from './store/credit-card-page.js';
import { annotateTransaction, annotateTransactions } from './store/annotate.js';
import { userIdsByEmail } from '../users/public.js';
import { presentBanking, presentCreditCard } from './present.js';
import { receiptHandlers } from './receipt-handlers.js';
import { BANKING_DOCUMENT, CREDIT_CARD_DOCUMENT, resolveSearch } from './store/search.js';
import { syncHandlers } from './sync-handlers.js';

/** PATCH of a transaction of `statement`: notes, category, cost center, reconciliation (store/annotate.ts). */
const reconcile =
  (statement: Parameters<typeof annotateTransaction>[1]) =>
  async (
    { params, body }: { params: { transactionId: number | string }; body: Parameters<typeof annotateTransaction>[4] },
    { db, auth, actor }: HandlerContext,
  ) => {
    await annotateTransaction(db, statement, auth.companyId, params.transactionId, body, auth.companyClock.now(), {
      timeZone: auth.timeZone,
      actor,
    });
    return { status: 204 as const };
  };

const BATCH_IF_MATCH =
  "If-Match has no meaning on a batch (it is not one item): send each transaction's ETag as its item's ifMatch";

/**
 * The batch PATCH of `statement`: every item under the single PATCH's rules, all or nothing
 * (store/annotate.ts). Its preconditions are per item (`ifMatch`): an `If-Match` header is refused, never ignored.
 */
const reconcileMany =
  (statement: Parameters<typeof annotateTransactions>[1]) =>
  async (
    { body }: { body: { transactions: Parameters<typeof annotateTransactions>[3] } },
    { db, auth, actor, req }: HandlerContext,
  ) => {
    if (req.headers['if-match'] !== undefined)
      throw badRequest(BATCH_IF_MATCH, [`If-Match: ${BATCH_IF_MATCH}`], {
        reason: 'invalid_request',
        param: 'If-Match',
      });
    await annotateTransactions(db, statement, auth.companyId, body.transactions, auth.companyClock.now(), {
      timeZone: auth.timeZone,
      actor,
    });
    return { status: 204 as const };
  };

export const handlers = defineHandlers({
  ...receiptHandlers,
  ...syncHandlers,

  listBankingTransactions: async ({ query }, { db, auth, config, index }) => {
    const { page, paging: pages, email, words } = bankingPageQuery(query, { auth, config, index });
    if (words) page.filters.search = await resolveSearch(db, auth.companyId, words, BANKING_DOCUMENT);
    if (email !== undefined) {
      page.filters.userIds = await userIdsByEmail(db, auth.companyId, email);
      if (page.filters.userIds.length === 0) return { status: 200, body: { transactions: [] } };
    }
    const { items, nextKey } = await loadBankingPage(db, page);
    return {
      status: 200,
      body: {
        transactions: items.map((t) => presentBanking(t, auth.timeZone)),
        ...(nextKey ? { nextPageStartKey: pages.cursorAfter(nextKey) } : {}),
      },
    };
  },

  listCreditCardTransactions: async ({ query }, { db, auth, config, index }) => {
    const { query: filters, scope, words } = creditCardQuery(query, auth.companyId, auth.timeZone);
    assertCardWindow(query.startDate, query.endDate);
    const pages = paging('listCreditCardTransactions', { auth, config, index }, query, scope, ['string', 'string']);
    const { items, nextKey } = await loadCreditCardPage(db, {
      ...filters,
      ...(words ? { search: await resolveSearch(db, auth.companyId, words, CREDIT_CARD_DOCUMENT) } : {}),
      after: pages.after,
      take: pages.limit,
    });
    return {
      status: 200,
      body: {
        transactions: items.map((t) => presentCreditCard(t, auth.timeZone)),
        ...(nextKey ? { nextPageStartKey: pages.cursorAfter(nextKey) } : {}),
      },
    };
  },

  getBankingTransaction: async ({ params }, { db, auth }) => {
    const item = await findBankingItem(db, auth.companyId, params.transactionId);
    if (!item) throw notFound('Transaction not found');
    return { status: 200, body: presentBanking(item, auth.timeZone) };
  },

  getCreditCardTransaction: async ({ params }, { db, auth }) => {
    const item = await findCreditCardItem(db, auth.companyId, params.transactionId);
    if (!item) throw notFound('Transaction not found');
    return { status: 200, body: presentCreditCard(item, auth.timeZone) };
  },

  reconcileBankingTransaction: reconcile('banking_transactions'),
  reconcileCreditCardTransaction: reconcile('credit_card_transactions'),
  reconcileBankingTransactions: reconcileMany('banking_transactions'),
  reconcileCreditCardTransactions: reconcileMany('credit_card_transactions'),
});
