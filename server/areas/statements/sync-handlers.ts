// The statements' change feeds (`…/banking/sync`, `…/credit-card/sync`): a signed cursor holding a
// position in the company's change order (store/changes.ts, versions.ts), bound to the company and the
// filters, with what the cursor's client was sent (`sentThrough`: every row created up to it; `since`:
// the change number of its first page) and the store's history (history.ts). A cursor of another
// history (a restored backup, another database), or ahead of the company's version (its data was
// restored to an earlier state), can no longer be served: 410, start over. A cursor no key opens
// (altered, signed with a secret the server no longer has, another company's or of other filters) is
// answered alike: its signature cannot tell these apart, and the client's way on is the same for each.
import { defineHandlers, type HandlerContext } from '../../kit/handler.js';
import { ApiError, badRequest } from '../../kit/errors.js';
import { openCursor, signCursor } from '../../kit/signing-keys.js';
import { feedCeiling, type FeedCeiling } from './versions.js';
import { type FeedPage, type FeedPosition, loadBankingChanges, loadCreditCardChanges } from './store/changes.js';
import { presentBanking, presentCreditCard } from './present.js';
import { erpFilters } from './store/erp-filters.js';

const DEFAULT_LIMIT = 100;
const EMPTY_MESSAGE = 'cursor is empty: leave it out for the initial sync, or send the nextCursor of an answer';
const RESTART_MESSAGE = 'The change feed can no longer serve this cursor; start again without one (the initial sync)';

type Feed = 'listBankingTransactionChanges' | 'listCreditCardTransactionChanges';

/** What a cursor holds: the position, what its client was sent, and the history it belongs to. */
interface CursorState<Id> {
  after: FeedPosition<Id> | undefined;
  sentThrough: number;
  since: number;
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

const restart = () =>
  new ApiError(410, RESTART_MESSAGE, [RESTART_MESSAGE], {}, { reason: 'sync_restart_required', param: 'cursor' });

/** The state a cursor holds, checked against its signature, the company, the filters and the store's history. */
function stateOf<Id extends number | string>(
  feed: Feed,
  { auth, config }: HandlerContext,
  filters: unknown,
  cursor: string | undefined,
  idType: 'number' | 'string',
  ceiling: FeedCeiling,
) {
  const scope = { op: feed, companyId: auth.companyId, filters };
  const cursorAt = (position: FeedPosition<Id> | undefined, sentThrough: number, since: number) =>
    signCursor(config.secrets, scope, { p: position ?? null, t: sentThrough, s: since, h: ceiling.history });
  if (cursor === undefined)
    return { state: { after: undefined, sentThrough: 0, since: ceiling.version } as CursorState<Id>, cursorAt };
  if (cursor === '') throw badRequest(EMPTY_MESSAGE, [`cursor: ${EMPTY_MESSAGE}`], { param: 'cursor' });
  const payload = openCursor(config.secrets, scope, cursor) as
    | { p?: unknown; t?: unknown; s?: unknown; h?: unknown }
    | undefined;
  const p = payload?.p;
  const valid =
    (p === null || (Array.isArray(p) && p.length === 2 && Number.isSafeInteger(p[0]) && typeof p[1] === idType)) &&
    (payload?.t === undefined || isCount(payload.t)) &&
    (payload?.s === undefined || isCount(payload.s)) &&
    (payload?.h === undefined || typeof payload.h === 'string');
  if (!valid) throw restart();
  const after = (p ?? undefined) as FeedPosition<Id> | undefined;
  // A cursor of another history, or past what this store has: what its client holds is not what this store had.
  if (payload?.h !== undefined && payload.h !== ceiling.history) throw restart();
  if (after && after[0] > ceiling.version) throw restart();
  // Cursors issued before `sentThrough` was kept: nothing is known to be sent (everything comes as added).
  const state: CursorState<Id> = {
    after,
    sentThrough: (payload?.t as number | undefined) ?? 0,
    since: (payload?.s as number | undefined) ?? 0,
  };
  return { state, cursorAt };
}

/** The answer of a feed page: added, modified and removed in change order, the cursor after its last row. */
function answer<T, Id extends number | string>(
  page: FeedPage<T, Id>,
  state: CursorState<Id>,
  cursorAt: (position: FeedPosition<Id> | undefined, sentThrough: number, since: number) => string,
  shown: (item: T) => unknown,
) {
  const added: unknown[] = [];
  const modified: unknown[] = [];
  const removed: Array<{ id: Id }> = [];
  for (const change of page.changes) {
    if (change.kind === 'removed') removed.push({ id: change.id });
    else (change.added ? added : modified).push(shown(change.item));
  }
  const last = page.changes.at(-1)?.position;
  return {
    added,
    modified,
    removed,
    nextCursor: cursorAt(last ?? state.after, page.sentThrough, state.since),
    hasMore: page.more,
  };
}

export const syncHandlers = defineHandlers({
  listBankingTransactionChanges: async ({ query }, ctx) => {
    const erp = erpFilters(query);
    const ceiling = await feedCeiling(ctx.db, ctx.auth.companyId);
    const { state, cursorAt } = stateOf<number>(
      'listBankingTransactionChanges',
      ctx,
      { accountId: query.accountId, ...(erp ? { erp } : {}) },
      query.cursor,
      'number',
      ceiling,
    );
    const page = await loadBankingChanges(ctx.db, {
      companyId: ctx.auth.companyId,
      accountId: query.accountId,
      erp,
      ...state,
      take: query.limit ?? DEFAULT_LIMIT,
      ceiling,
    });
    const body = answer(page, state, cursorAt, (t) => presentBanking(t, ctx.auth.timeZone));
    return { status: 200, body: body as never };
  },

  listCreditCardTransactionChanges: async ({ query }, ctx) => {
    const cardIds = query.cardIds ? [...new Set(query.cardIds.map((id) => id.toLowerCase()))].sort() : undefined;
    const erp = erpFilters(query);
    const ceiling = await feedCeiling(ctx.db, ctx.auth.companyId);
    const { state, cursorAt } = stateOf<string>(
      'listCreditCardTransactionChanges',
      ctx,
      { cardIds, ...(erp ? { erp } : {}) },
      query.cursor,
      'string',
      ceiling,
    );
    const page = await loadCreditCardChanges(ctx.db, {
      companyId: ctx.auth.companyId,
      cardIds,
      erp,
      ...state,
      take: query.limit ?? DEFAULT_LIMIT,
      ceiling,
    });
    const body = answer(page, state, cursorAt, (t) => presentCreditCard(t, ctx.auth.timeZone));
    return { status: 200, body: body as never };
  },
});
