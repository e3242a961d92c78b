// The event log: list (newest first, filtered by types and creation time) and get.
import { defineHandlers } from '../../kit/handler.js';
import { notFound } from '../../kit/errors.js';
import { paging } from '../../kit/paging.js';
import { EVENT_RETENTION_MS, presentEvent } from './log.js';
import { findEvent, listEvents } from './store.js';

export const handlers = defineHandlers({
  listEvents: async ({ query }, ctx) => {
    const types = query.types ? [...new Set(query.types)].sort() : undefined;
    const page = paging('listEvents', ctx, query, { types, createdAfter: query.createdAfter }, ['string']);
    // Older than 30 days is gone, even before the purge has run.
    const retained = new Date(ctx.clock.now().getTime() - EVENT_RETENTION_MS).toISOString();
    const after = query.createdAfter ? new Date(query.createdAfter).toISOString() : undefined;
    const createdAfter = after && after > retained ? after : retained;
    const rows = await listEvents(ctx.db, ctx.auth.companyId, {
      types,
      createdAfter,
      limit: page.limit,
      beforeId: page.after?.[0],
    });
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.id]);
    return { status: 200, body: { items: items.map(presentEvent), ...(nextPageStartKey ? { nextPageStartKey } : {}) } };
  },

  getEvent: async ({ params }, ctx) => {
    const row = await findEvent(ctx.db, ctx.auth.companyId, params.eventId);
    const retained = new Date(ctx.clock.now().getTime() - EVENT_RETENTION_MS).toISOString();
    if (!row || row.created_at < retained) throw notFound('Event not found');
    return { status: 200, body: presentEvent(row) };
  },
});
