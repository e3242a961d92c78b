// The statements' change feeds (`…/banking/sync`, `…/credit-card/sync`): a signed cursor holding a
// position in the company's change order (store/changes.ts, versions.ts) and the change number
// through which its reader has been sent every row (`s`: the position's when a page ran out of rows,
// -1 until the initial pass did; a row created after it is `added`), bound to the company and the
// filters. A cursor ahead of the company's version (its data was restored to an
// earlier state) can no longer be served: 410, start over.
import { defineHandlers, type HandlerContext } from '../../kit/handler.js';
import { ApiError, badRequest } from '../../kit/errors.js';
import { sign, verify } from '../../lib/signed-token.js';
import { statementVersion } from './versions.js';
import { loadBankingChanges, loadCreditCardChanges, type FeedPosition } from './store/changes.js';
import { presentBanking, presentCreditCard } from './present.js';

const DEFAULT_LIMIT = 100;
const CURSOR_MESSAGE = 'cursor is invalid, or was issued for another company or other filters';
const RESTART_MESSAGE = 'The change feed can no longer serve this cursor; start again without one (the initial sync)';

type Feed = 'listBankingTransactionChanges' | 'listCreditCardTransactionChanges';

/** The position a cursor holds, checked against its signature, the company and the filters. */
async function positionOf<Id extends number | string>(
  feed: Feed,
  { auth, config, db }: HandlerContext,
  filters: unknown,
  cursor: string | undefined,
  idType: 'number' | 'string',
) {
  const scope = { op: feed, companyId: auth.companyId, filters };
  const cursorAt = (position: FeedPosition<Id> | undefined, sentThrough: number) =>
    sign(config.secrets.cursor, scope, { p: position ?? null, s: sentThrough });
  if (cursor === undefined) return { after: undefined, sentThrough: -1, cursorAt };
  const payload = verify(config.secrets.cursor, scope, cursor) as { p?: unknown; s?: unknown } | undefined;
  const p = payload?.p;
  const valid =
    p === null || (Array.isArray(p) && p.length === 2 && Number.isSafeInteger(p[0]) && typeof p[1] === idType);
  // A cursor issued before `s` existed: its reader had every row created up to its position.
  const s = payload?.s ?? (Array.isArray(p) ? p[0] : -1);
  if (!valid || !Number.isSafeInteger(s) || (s as number) < -1)
    throw badRequest(CURSOR_MESSAGE, [{ field: 'query.cursor', message: CURSOR_MESSAGE }], { param: 'cursor' });
  const after = (p ?? undefined) as FeedPosition<Id> | undefined;
  if (after && after[0] > (await statementVersion(db, auth.companyId)))
    throw new ApiError(
      410,
      RESTART_MESSAGE,
      [RESTART_MESSAGE],
      {},
      { reason: 'sync_restart_required', param: 'cursor' },
    );
  return { after, sentThrough: s as number, cursorAt };
}

/**
 * The answer of a feed page: added and modified in change order, the cursor after its last row. A
 * page that ran out of rows has sent every row there is through its position: the cursor says so.
 */
function answer<T, Id>(
  page: { changes: Array<{ item: T; added: boolean; position: FeedPosition<string | number> }>; more: boolean },
  { after, sentThrough }: { after: FeedPosition<Id> | undefined; sentThrough: number },
  cursorAt: (position: FeedPosition<Id> | undefined, sentThrough: number) => string,
) {
  const last = (page.changes.at(-1)?.position as FeedPosition<Id> | undefined) ?? after;
  return {
    added: page.changes.filter((c) => c.added).map((c) => c.item),
    modified: page.changes.filter((c) => !c.added).map((c) => c.item),
    removed: [],
    nextCursor: cursorAt(last, page.more || last === undefined ? sentThrough : last[0]),
    hasMore: page.more,
  };
}

export const syncHandlers = defineHandlers({
  listBankingTransactionChanges: async ({ query }, ctx) => {
    const { after, sentThrough, cursorAt } = await positionOf<number>(
      'listBankingTransactionChanges',
      ctx,
      { accountId: query.accountId },
      query.cursor,
      'number',
    );
    const page = await loadBankingChanges(ctx.db, {
      companyId: ctx.auth.companyId,
      accountId: query.accountId,
      after,
      sentThrough,
      take: query.limit ?? DEFAULT_LIMIT,
    });
    const { added, modified, ...rest } = answer(page, { after, sentThrough }, cursorAt);
    const shown = (t: (typeof added)[number]) => presentBanking(t, ctx.auth.timeZone);
    return { status: 200, body: { added: added.map(shown), modified: modified.map(shown), ...rest } };
  },

  listCreditCardTransactionChanges: async ({ query }, ctx) => {
    const cardIds = query.cardIds ? [...new Set(query.cardIds.map((id) => id.toLowerCase()))].sort() : undefined;
    const { after, sentThrough, cursorAt } = await positionOf<string>(
      'listCreditCardTransactionChanges',
      ctx,
      { cardIds },
      query.cursor,
      'string',
    );
    const page = await loadCreditCardChanges(ctx.db, {
      companyId: ctx.auth.companyId,
      cardIds,
      after,
      sentThrough,
      take: query.limit ?? DEFAULT_LIMIT,
    });
    const { added, modified, ...rest } = answer(page, { after, sentThrough }, cursorAt);
    const shown = (t: (typeof added)[number]) => presentCreditCard(t, ctx.auth.timeZone);
    return { status: 200, body: { added: added.map(shown), modified: modified.map(shown), ...rest } };
  },
});
