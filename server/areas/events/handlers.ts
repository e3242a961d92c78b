// The event log: list (newest first, filtered by types and creation time) and get.
import { defineHandlers } from '../../http/handler.js';
import { notFound } from '../../http/errors.js';
import { afterIdOf, DEFAULT_PAGE_SIZE, idPage } from '../../http/keyset.js';
import { EVENT_RETENTION_MS, findEvent, listEvents } from './store.js';
import { presentEvent } from './present.js';

export const handlers = defineHandlers({
  listEvents: async ({ query }, ctx) => {
    const { companyId } = ctx.auth;
    const secret = ctx.config.secrets.cursor;
    const types = query.types ? [...new Set(query.types)].sort() : undefined;
    const retained = new Date(ctx.clock.now().getTime() - EVENT_RETENTION_MS).toISOString();
    const createdAfter = query.createdAfter && new Date(query.createdAfter).toISOString() > retained ? new Date(query.createdAfter).toISOString() : retained;
    const scope = { op: 'listEvents', companyId, types, createdAfter: query.createdAfter };
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await listEvents(ctx.db, companyId, { types, createdAfter, limit, beforeId: afterIdOf(secret, scope, query.nextPageStartKey) });
    const page = idPage(secret, scope, rows, limit, (row) => row.id);
    return { status: 200, body: { ...page, items: page.items.map(presentEvent) } };
  },

  getEvent: async ({ params }, ctx) => {
    const row = await findEvent(ctx.db, ctx.auth.companyId, params.eventId);
    const retained = new Date(ctx.clock.now().getTime() - EVENT_RETENTION_MS).toISOString();
    if (!row || row.created_at < retained) throw notFound('Event not found');
    return { status: 200, body: presentEvent(row) };
  },
});
