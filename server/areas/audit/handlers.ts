// The audit log: list (newest first, filtered by action, actor and time), the company's own only.
import { defineHandlers } from '../../kit/handler.js';
import { badRequest } from '../../kit/errors.js';
import { paging } from '../../kit/paging.js';
import { listAuditEntries, retainedSince } from './store.js';
import { presentAuditEntry } from './present.js';

const iso = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());

export const handlers = defineHandlers({
  listAuditEntries: async ({ query }, ctx) => {
    const actions = query.actions ? [...new Set(query.actions)].sort() : undefined;
    const createdAfter = iso(query.createdAfter);
    const createdBefore = iso(query.createdBefore);
    if (createdAfter && createdBefore && createdAfter >= createdBefore) {
      const message = 'createdBefore must be later than createdAfter';
      throw badRequest(message, [{ field: 'query.createdBefore', message }], {
        reason: 'invalid_value',
        param: 'createdBefore',
      });
    }
    const filters = { actions, actor: query.actor, createdAfter, createdBefore };
    const page = paging('listAuditEntries', ctx, query, filters, ['string']);
    // Older than the retention is gone, even before the purge has run.
    const retained = retainedSince(ctx.clock.now(), ctx.config.auditRetentionDays);
    const rows = await listAuditEntries(ctx.db, ctx.auth.companyId, {
      actions,
      actor: query.actor,
      createdAfter: createdAfter && createdAfter > retained ? createdAfter : retained,
      createdBefore,
      limit: page.limit,
      beforeId: page.after?.[0],
    });
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.id]);
    return {
      status: 200,
      body: { items: items.map(presentAuditEntry), ...(nextPageStartKey ? { nextPageStartKey } : {}) },
    };
  },
});
