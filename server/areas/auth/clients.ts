// API clients as the company manages them through the API (client-handlers.ts): a page of them,
// one of them, their public shape, and the worker's revocation of clients left unused.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { components } from '../../../generated/openapi.js';
import { writeTransaction } from '../../db/transaction.js';
import { recordAudit, SYSTEM_ACTOR } from '../audit/public.js';
import type { ApiClientRow } from './tables.js';

type ApiClient = components['schemas']['ApiClient'];
type PublicRow = Omit<ApiClientRow, 'secret_hash' | 'previous_secret_hash'>;

const COLUMNS = [
  'id',
  'company_id',
  'scopes',
  'created_at',
  'revoked_at',
  'previous_secret_expires_at',
  'last_used_at',
  'name',
  'created_by',
  'allowed_ips',
  'expires_at',
  'last_used_ip',
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The client as the API shows it: never a secret or its hash. */
export const presentClient = (row: PublicRow, now: Date): ApiClient => ({
  clientId: row.id,
  name: row.name,
  scopes: row.scopes.split(' ').filter(Boolean) as ApiClient['scopes'],
  allowedIps: row.allowed_ips ? (JSON.parse(row.allowed_ips) as string[]) : null,
  expiresAt: row.expires_at,
  status: row.revoked_at
    ? 'revoked'
    : row.expires_at && Date.parse(row.expires_at) <= now.getTime()
      ? 'expired'
      : 'active',
  createdAt: row.created_at,
  createdBy: row.created_by,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
  lastUsedIp: row.last_used_ip,
  previousSecretExpiresAt: row.previous_secret_expires_at,
});

/** One client of the company, or undefined (another company's is as missing). */
export const findCompanyClient = (db: Db, companyId: string, clientId: string): Promise<PublicRow | undefined> =>
  db
    .selectFrom('api_clients')
    .select(COLUMNS)
    .where('company_id', '=', companyId)
    .where('id', '=', clientId)
    .executeTakeFirst();

/** A page of the company's clients, oldest first (`limit + 1` rows), after the key `[createdAt, id]`. */
export async function listCompanyClients(
  db: Db,
  companyId: string,
  limit: number,
  after?: [string, string],
): Promise<PublicRow[]> {
  let query = db.selectFrom('api_clients').select(COLUMNS).where('company_id', '=', companyId);
  if (after) query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(after[0], after[1])));
  return query
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
}

/**
 * Revokes the active clients given no token for `days` (counted from their creation when never
 * used), each with an `api_client.expired` audit entry by `system`. The worker's housekeeping.
 */
export async function expireUnusedClients(db: Db, clock: Clock, days: number): Promise<number> {
  if (days <= 0) return 0;
  const cutoff = new Date(clock.now().getTime() - days * DAY_MS).toISOString();
  return writeTransaction(db, async (trx) => {
    const expired = await trx
      .updateTable('api_clients')
      .set({ revoked_at: clock.now().toISOString() })
      .where('revoked_at', 'is', null)
      // last_used_at is text (0017), created_at an instant (0001): compared apart, never coalesced.
      .where((eb) =>
        eb.or([
          eb.and([eb('last_used_at', 'is', null), eb('created_at', '<', cutoff)]),
          eb('last_used_at', '<', cutoff),
        ]),
      )
      .returning(['id', 'company_id', 'last_used_at'])
      .execute();
    for (const client of expired)
      await recordAudit(trx, clock, {
        companyId: client.company_id,
        action: 'api_client.expired',
        actor: SYSTEM_ACTOR,
        target: client.id,
        details: { unusedDays: days, lastUsedAt: client.last_used_at },
      });
    return expired.length;
  });
}
