// Invites: creating one (refused for members and pending addresses) and accepting one (sandbox).
// Checks and writes share one transaction; the unique index on pending invites backs them up
// should two requests still meet (several replicas on one PostgreSQL).
import { PLATFORM, type Actor } from '../../kit/handler.js';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { conflict } from '../../kit/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import { nameFromEmail, normalizeEmail } from './email.js';
import { assignableRole } from './users-service.js';
import { expireInvites, findPendingInvite, insertInvite, markInviteAccepted } from './store/invites.js';
import { findUserByEmail, insertUsers, findUser, type UserView } from './store/users.js';
import { writeTransaction } from '../../db/transaction.js';
import type { InviteRow } from './tables.js';
import { recordEvent } from '../events/public.js';

/** The contract's limit on a user's name. */
const MAX_NAME_LENGTH = 120;

/** How long an invite stays pending. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const alreadyMember = (email: string) =>
  conflict('This address already belongs to a user of the company', [
    { field: 'email', message: `${email} is already a member of the company` },
  ]);
const alreadyInvited = (email: string) =>
  conflict('This address already has a pending invite', [{ field: 'email', message: `${email} has a pending invite` }]);

/** Creates a pending invite; answers the address as stored. */
/** An invite as events show it. */
const presentInvite = (invite: InviteRow) => ({
  id: invite.id,
  email: invite.email,
  roleId: invite.role_id,
  status: invite.status,
  createdAt: invite.created_at,
  expiresAt: invite.expires_at,
  ...(invite.user_id ? { userId: invite.user_id } : {}),
  ...(invite.accepted_at ? { acceptedAt: invite.accepted_at } : {}),
});

export async function createInvite(
  db: Db,
  clock: Clock,
  companyId: string,
  body: { roleId: string; email: string },
  actor: Actor = PLATFORM,
): Promise<string> {
  const email = body.email.trim();
  const normalized = normalizeEmail(email);
  const now = clock.now();
  try {
    await writeTransaction(db, async (trx) => {
      const role = await assignableRole(trx, companyId, body.roleId);
      if (await findUserByEmail(trx, companyId, normalized)) throw alreadyMember(email);
      await expireInvites(trx, companyId, normalized, now.toISOString());
      if (await findPendingInvite(trx, companyId, normalized)) throw alreadyInvited(email);
      const invite: InviteRow = {
        id: randomUUID(),
        company_id: companyId,
        email,
        email_normalized: normalized,
        role_id: role.id,
        status: 'PENDING',
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + INVITE_TTL_MS).toISOString(),
        accepted_at: null,
        user_id: null,
      };
      await insertInvite(trx, invite);
      await recordEvent(trx, now, { companyId, type: 'invite.created', ...actor, object: presentInvite(invite) });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyInvited(email);
    throw err;
  }
  return email;
}

/** Why an invite cannot be accepted; the CLI prints the message. */
export class InviteNotAcceptable extends Error {
  override name = 'InviteNotAcceptable';
}

/**
 * Turns the address's pending invite into an active user with the invited role. With `inviteId`,
 * only that invite: it must be the address's pending one.
 */
export async function acceptInvite(
  db: Db,
  clock: Clock,
  companyId: string,
  input: { email: string; name?: string; inviteId?: string; actor?: Actor },
): Promise<UserView> {
  const normalized = normalizeEmail(input.email);
  const now = clock.now().toISOString();
  return writeTransaction(db, async (trx) => {
    await expireInvites(trx, companyId, normalized, now);
    const invite = await findPendingInvite(trx, companyId, normalized);
    if (!invite || (input.inviteId !== undefined && invite.id !== input.inviteId))
      throw new InviteNotAcceptable(
        input.inviteId !== undefined
          ? `the invite ${input.inviteId} is not pending (accepted, or expired)`
          : `no pending invite for ${input.email} in company ${companyId} (never sent, expired or accepted)`,
      );
    if (await findUserByEmail(trx, companyId, normalized))
      throw new InviteNotAcceptable(`${input.email} is already a member of the company`);
    const name = input.name?.trim() || nameFromEmail(invite.email);
    if (name.length > MAX_NAME_LENGTH)
      throw new InviteNotAcceptable(`the name must have at most ${MAX_NAME_LENGTH} characters`);
    const id = randomUUID();
    await insertUsers(trx, [
      {
        id,
        company_id: companyId,
        email: invite.email,
        email_normalized: normalized,
        name,
        phone: null,
        role_id: invite.role_id,
        active: 1,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      },
    ]);
    await markInviteAccepted(trx, companyId, invite.id, id, now);
    await recordEvent(trx, now, {
      companyId,
      type: 'invite.accepted',
      ...(input.actor ?? PLATFORM),
      object: presentInvite({ ...invite, status: 'ACCEPTED', accepted_at: now, user_id: id }),
      previousAttributes: { status: invite.status },
    });
    const user = await findUser(trx, companyId, id);
    if (!user) throw new Error(`user ${id} vanished inside its creation`);
    return user;
  });
}
