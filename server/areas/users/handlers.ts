// Users, roles and invites: read the validated request, call the store or the rules, shape the reply.
import { paging } from '../../kit/paging.js';
import { defineHandlers } from '../../kit/handler.js';
import { normalizeEmail } from './email.js';
import { presentInviteItem, presentRole, presentUser } from './present.js';
import { createInvite } from './invites-service.js';
import { deleteUser, updateUser, userNotFound } from './users-service.js';
import { listRoles } from './store/roles.js';
import { findUser, listUsers } from './store/users.js';
import { pageInvites } from './store/invites.js';

export const handlers = defineHandlers({
  listUsers: async ({ query }, ctx) => {
    const email = query.email === undefined ? undefined : normalizeEmail(query.email);
    const page = paging('listUsers', ctx, query, { email }, ['string']);
    const rows = await listUsers(ctx.db, ctx.auth.companyId, { limit: page.limit, email, afterEmail: page.after?.[0] });
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.email_normalized]);
    return {
      status: 200,
      body: { data: items.map(presentUser), ...(nextPageStartKey ? { nextPageStartKey } : {}), limit: page.limit },
    };
  },

  getUser: async ({ params }, ctx) => {
    const user = await findUser(ctx.db, ctx.auth.companyId, params.userId);
    if (!user) throw userNotFound();
    return { status: 200, body: presentUser(user) };
  },

  updateUser: async ({ params, body }, ctx) => {
    const user = await updateUser(ctx.db, ctx.auth.companyClock, ctx.auth.companyId, params.userId, body, ctx.actor);
    return { status: 200, body: presentUser(user) };
  },

  deleteUser: async ({ params }, ctx) => {
    await deleteUser(ctx.db, ctx.auth.companyClock, ctx.auth.companyId, params.userId, ctx.actor);
    return { status: 204 };
  },

  listRoles: async ({ query }, ctx) => {
    const page = paging('listRoles', ctx, query, {}, ['string', 'string']);
    const rows = await listRoles(ctx.db, ctx.auth.companyId, page);
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.name, last.id]);
    return { status: 200, body: { items: items.map(presentRole), ...(nextPageStartKey ? { nextPageStartKey } : {}) } };
  },

  listInvites: async ({ query }, ctx) => {
    const filters = { status: query.status, roleId: query.roleId?.toLowerCase() };
    const page = paging('listInvites', ctx, query, filters, ['string', 'string']);
    const now = ctx.auth.companyClock.now().toISOString();
    const rows = await pageInvites(ctx.db, ctx.auth.companyId, {
      ...filters,
      now,
      after: page.after,
      limit: page.limit,
    });
    const { items, nextPageStartKey } = page.page(rows, (last) => [last.created_at, last.id]);
    return {
      status: 200,
      body: {
        data: items.map((invite) => presentInviteItem(invite, now)),
        ...(nextPageStartKey ? { nextPageStartKey } : {}),
        limit: page.limit,
      },
    };
  },

  createInvite: async ({ body }, ctx) => {
    const email = await createInvite(ctx.db, ctx.auth.companyClock, ctx.auth.companyId, body, ctx.actor);
    return { status: 201, body: { message: `Invite sent to ${email}` } };
  },
});
