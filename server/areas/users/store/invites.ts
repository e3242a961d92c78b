// Queries on invites. A PENDING invite whose expires_at has passed counts as expired.
import { sql } from 'kysely';
import type { Db } from '../../../db/database.js';
import type { InviteRow } from '../tables.js';

/** Stores the EXPIRED status of the address's pending invites that are past their expiry. */
export async function expireInvites(db: Db, companyId: string, emailNormalized: string, now: string): Promise<void> {
  await db
    .updateTable('invites')
    .set({ status: 'EXPIRED' })
    .where('company_id', '=', companyId)
    .where('email_normalized', '=', emailNormalized)
    .where('status', '=', sql.lit('PENDING')) // literal as in the partial index: a bound value makes SQLite recompile at each run
    .where('expires_at', '<=', now)
    .execute();
}

/** The address's latest PENDING invite, expired or not (compare expires_at with now). */
export async function findPendingInvite(
  db: Db,
  companyId: string,
  emailNormalized: string,
): Promise<InviteRow | undefined> {
  return db
    .selectFrom('invites')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('email_normalized', '=', emailNormalized)
    .where('status', '=', sql.lit('PENDING'))
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** The company's invite by id, in any state. */
export async function findInvite(db: Db, companyId: string, inviteId: string): Promise<InviteRow | undefined> {
  return db
    .selectFrom('invites')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', inviteId)
    .executeTakeFirst();
}

export async function insertInvite(db: Db, row: InviteRow): Promise<void> {
  await db.insertInto('invites').values(row).execute();
}

export async function markInviteAccepted(
  db: Db,
  companyId: string,
  inviteId: string,
  userId: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('invites')
    .set({ status: 'ACCEPTED', accepted_at: at, user_id: userId })
    .where('company_id', '=', companyId)
    .where('id', '=', inviteId)
    .execute();
}

interface InviteView extends InviteRow {
  role_name: string;
}

/** The company's invites, newest first. */
export async function listInvites(db: Db, companyId: string): Promise<InviteView[]> {
  return db
    .selectFrom('invites')
    .innerJoin('roles', 'roles.id', 'invites.role_id')
    .selectAll('invites')
    .select('roles.name as role_name')
    .where('invites.company_id', '=', companyId)
    .orderBy('invites.created_at', 'desc')
    .orderBy('invites.id', 'desc')
    .execute();
}

interface InvitesPageQuery {
  /** The company's current instant: a PENDING invite past its expiry at `now` is EXPIRED. */
  now: string;
  status?: 'PENDING' | 'EXCLUDED' | 'EXPIRED' | 'ACCEPTED';
  roleId?: string;
  /** The (created_at, id) of the previous page's last invite. */
  after?: [string, string];
  limit: number;
}

/** One page of the company's invites, newest first, with `limit + 1` rows when more follow. */
export async function pageInvites(db: Db, companyId: string, q: InvitesPageQuery): Promise<InviteView[]> {
  // No operation withdraws an invite: none is EXCLUDED.
  if (q.status === 'EXCLUDED') return [];
  let query = db
    .selectFrom('invites')
    .innerJoin('roles', 'roles.id', 'invites.role_id')
    .selectAll('invites')
    .select('roles.name as role_name')
    .where('invites.company_id', '=', companyId);
  if (q.roleId !== undefined) query = query.where('invites.role_id', '=', q.roleId);
  if (q.status === 'ACCEPTED') query = query.where('invites.status', '=', 'ACCEPTED');
  if (q.status === 'PENDING')
    query = query.where('invites.status', '=', 'PENDING').where('invites.expires_at', '>', q.now);
  if (q.status === 'EXPIRED')
    query = query.where((eb) =>
      eb.or([
        eb('invites.status', '=', 'EXPIRED'),
        eb.and([eb('invites.status', '=', 'PENDING'), eb('invites.expires_at', '<=', q.now)]),
      ]),
    );
  if (q.after) {
    const [createdAt, id] = q.after;
    query = query.where((eb) => eb(eb.refTuple('invites.created_at', 'invites.id'), '<', eb.tuple(createdAt, id)));
  }
  return query
    .orderBy('invites.created_at', 'desc')
    .orderBy('invites.id', 'desc')
    .limit(q.limit + 1)
    .execute();
}
