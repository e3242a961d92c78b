// The rules of updating and deleting users. Each check and its write run in one transaction,
// so concurrent requests cannot together break a rule (e.g. demote the last two administrators).
import { PLATFORM, type Actor } from '../../kit/handler.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound, type FieldProblem } from '../../kit/errors.js';
import { findRole } from './store/roles.js';
import { changedAttributes, recordEvent } from '../events/public.js';
import { presentUser } from './present.js';
import {
  countActiveAdministrators,
  findUser,
  softDeleteUser,
  updateUser as writeUser,
  type UserView,
} from './store/users.js';
import { writeTransaction } from '../../db/transaction.js';

export const userNotFound = () => notFound('User not found');

const KEEP_ADMIN = 'the company must keep at least one active RESPONSIBLE user';

/** The role `roleId` names, when it is a role of the company that can be given to a user. */
export async function assignableRole(db: Db, companyId: string, roleId: string) {
  const role = await findRole(db, companyId, roleId);
  if (!role)
    throw badRequest(
      'roleId is not a role of the company',
      [{ field: 'roleId', message: 'no role with this id in the company' }],
      { reason: 'unknown_reference', param: 'roleId' },
    );
  if (role.profile === 'MAIN') {
    throw badRequest('The MAIN role cannot be assigned', [
      { field: 'roleId', message: 'the MAIN role belongs to the account owner and cannot be assigned' },
    ]);
  }
  return role;
}

/** True when `user` is an active administrator and no other active administrator exists. */
async function isLastAdministrator(db: Db, companyId: string, user: UserView): Promise<boolean> {
  if (user.active !== 1 || user.role_profile !== 'RESPONSIBLE') return false;
  return (await countActiveAdministrators(db, companyId)) <= 1;
}

export async function updateUser(
  db: Db,
  clock: Clock,
  companyId: string,
  userId: string,
  body: { name?: string; roleId?: string },
  actor: Actor = PLATFORM,
): Promise<UserView> {
  return writeTransaction(db, async (trx) => {
    const user = await findUser(trx, companyId, userId);
    if (!user) throw userNotFound();
    const role = body.roleId === undefined ? undefined : await assignableRole(trx, companyId, body.roleId);
    if (user.role_profile === 'MAIN') {
      throw conflict('The account owner cannot be updated', [
        { field: 'userId', message: 'users with the MAIN profile cannot be updated' },
      ]);
    }
    if (user.active !== 1) {
      const fields = (['name', 'roleId'] as const).filter((f) => body[f] !== undefined);
      const details: FieldProblem[] = fields.map((field) => ({ field, message: 'can only change for active users' }));
      throw conflict('An inactive user cannot be updated', details);
    }
    if (role && role.profile !== 'RESPONSIBLE' && (await isLastAdministrator(trx, companyId, user))) {
      throw conflict('The last administrator cannot be demoted', [{ field: 'roleId', message: KEEP_ADMIN }]);
    }
    await writeUser(trx, companyId, userId, {
      updated_at: clock.now().toISOString(),
      ...(body.name !== undefined ? { name: body.name.trim() } : {}),
      ...(role ? { role_id: role.id } : {}),
    });
    const updated = await findUser(trx, companyId, userId);
    if (!updated) throw new Error(`user ${userId} vanished inside its update`);
    const before = presentUser(user);
    const after = presentUser(updated);
    await recordEvent(trx, clock.now(), {
      companyId,
      type: 'user.updated',
      ...actor,
      object: after,
      previousAttributes: changedAttributes(before, after),
    });
    return updated;
  });
}

export async function deleteUser(
  db: Db,
  clock: Clock,
  companyId: string,
  userId: string,
  actor: Actor = PLATFORM,
): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const user = await findUser(trx, companyId, userId);
    if (!user) throw userNotFound();
    if (user.role_profile === 'MAIN') {
      throw conflict('The account owner cannot be deleted', [
        { field: 'userId', message: 'users with the MAIN profile cannot be deleted' },
      ]);
    }
    if (await isLastAdministrator(trx, companyId, user)) {
      throw conflict('The last administrator cannot be deleted', [{ field: 'userId', message: KEEP_ADMIN }]);
    }
    await softDeleteUser(trx, companyId, userId, clock.now().toISOString());
    await recordEvent(trx, clock.now(), { companyId, type: 'user.deleted', ...actor, object: presentUser(user) });
  });
}
