// Users, roles and invites: read the validated request, call the store or the rules, shape the reply.
import { badRequest } from '../../http/errors.js';
import { decodeCursor, pageOf } from '../../http/cursor.js';
import { defineHandlers } from '../../http/handler.js';
import { normalizeEmail } from './email.js';
import { presentRole, presentUser } from './present.js';
import { createInvite } from './invites-service.js';
import { deleteUser, updateUser, userNotFound } from './users-service.js';
import { listRoles } from './store/roles.js';
import { findUser, listUsers } from './store/users.js';

export const DEFAULT_PAGE_SIZE = 50;

const invalidCursor = () => {
  const message = 'nextPageStartKey is invalid, or was issued for other filters';
  return badRequest(message, [{ field: 'nextPageStartKey', message }]);
};

/** The decoded sort key when it has `length` string members, else 400. */
function cursorKey(secret: Buffer, scope: unknown, token: string | undefined, length: number): string[] | undefined {
  if (token === undefined) return undefined;
  const key = decodeCursor(secret, scope, token, true);
  if (key.length !== length || !key.every((k): k is string => typeof k === 'string')) throw invalidCursor();
  return key;
}

export const handlers = defineHandlers({
  listUsers: async ({ query }, ctx) => {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const email = query.email === undefined ? undefined : normalizeEmail(query.email);
    const scope = { op: 'listUsers', companyId: ctx.auth.companyId, email };
    const after = cursorKey(ctx.config.secrets.cursor, scope, query.nextPageStartKey, 1);
    const rows = await listUsers(ctx.db, ctx.auth.companyId, { limit, email, afterEmail: after?.[0] });
    const { items, nextPageStartKey } = pageOf(ctx.config.secrets.cursor, scope, rows, limit, (last) => [last.email_normalized]);
    return { status: 200, body: { data: items.map(presentUser), ...(nextPageStartKey ? { nextPageStartKey } : {}), limit } };
  },

  getUser: async ({ params }, ctx) => {
    const user = await findUser(ctx.db, ctx.auth.companyId, params.userId);
    if (!user) throw userNotFound();
    return { status: 200, body: presentUser(user) };
  },

  updateUser: async ({ params, body }, ctx) => {
    const user = await updateUser(ctx.db, ctx.clock, ctx.auth.companyId, params.userId, body, ctx.requestId);
    return { status: 200, body: presentUser(user) };
  },

  deleteUser: async ({ params }, ctx) => {
    await deleteUser(ctx.db, ctx.clock, ctx.auth.companyId, params.userId, ctx.requestId);
    return { status: 204 };
  },

  listRoles: async ({ query }, ctx) => {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const scope = { op: 'listRoles', companyId: ctx.auth.companyId };
    const after = cursorKey(ctx.config.secrets.cursor, scope, query.nextPageStartKey, 2) as [string, string] | undefined;
    const rows = await listRoles(ctx.db, ctx.auth.companyId, { limit, after });
    const { items, nextPageStartKey } = pageOf(ctx.config.secrets.cursor, scope, rows, limit, (last) => [last.name, last.id]);
    return { status: 200, body: { items: items.map(presentRole), ...(nextPageStartKey ? { nextPageStartKey } : {}) } };
  },

  createInvite: async ({ body }, ctx) => {
    const email = await createInvite(ctx.db, ctx.clock, ctx.auth.companyId, body, ctx.requestId);
    return { status: 201, body: { message: `Invite sent to ${email}` } };
  },
});
