// The audit log's write side, shared by every area: `recordAudit` is called inside the caller's
// transaction, so the entry commits or rolls back with the action. Entries are never changed (the
// database refuses an UPDATE); the retention purge is the only delete.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { monotonicUlids } from '../../lib/ulid.js';
import type { AuditAction } from './actions.js';
import type { AuditEntryRow } from './tables.js';

type Db = Kysely<Database>;

const nextAuditId = monotonicUlids();

interface AuditEntry {
  companyId: string;
  action: AuditAction;
  /** The API client id that acted, `cli` or `system`. */
  actor: string;
  target?: string | null;
  ip?: string | null;
  requestId?: string | null;
  /** What else the entry says (a refusal's reason, the scopes granted); never a secret. */
  details?: Record<string, unknown>;
}

/** An address as the log shows it: IPv4-mapped IPv6 (`::ffff:127.0.0.1`) as plain IPv4. */
export const plainAddress = (ip: string | undefined | null): string | null =>
  ip ? ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1') : null;

/** Writes an audit entry with `db` (the action's transaction); its time is `clock`'s, its id follows it. */
export async function recordAudit(db: Db, clock: Clock, entry: AuditEntry): Promise<AuditEntryRow> {
  const now = clock.now();
  const row: AuditEntryRow = {
    id: `aud_${nextAuditId(now.getTime())}`,
    company_id: entry.companyId,
    action: entry.action,
    actor: entry.actor,
    target: entry.target ?? null,
    ip: plainAddress(entry.ip),
    request_id: entry.requestId ?? null,
    created_at: now.toISOString(),
    details: entry.details && Object.keys(entry.details).length > 0 ? JSON.stringify(entry.details) : null,
  };
  await db.insertInto('audit_entries').values(row).execute();
  return row;
}

/** Who made a request, for an entry: its company, client, address and request id. */
export const requestActor = (ctx: {
  auth: { companyId: string; clientId: string };
  req: { ip?: string | undefined; socket: { remoteAddress?: string | undefined } };
  requestId: string;
}) => ({
  companyId: ctx.auth.companyId,
  actor: ctx.auth.clientId,
  ip: ctx.req.ip ?? ctx.req.socket.remoteAddress ?? null,
  requestId: ctx.requestId,
});

/** Writes one entry of a request's action, given the transaction and the target; what stores take from handlers. */
export type AuditWrite = (db: Db, target: string | null, details?: Record<string, unknown>) => Promise<unknown>;

/** The entry writer of `action` done by the request of `ctx`, timed by `ctx.clock`. */
export const auditing =
  (ctx: Parameters<typeof requestActor>[0] & { clock: Clock }, action: AuditAction): AuditWrite =>
  (db, target, details) =>
    recordAudit(db, ctx.clock, { ...requestActor(ctx), action, target, details });
