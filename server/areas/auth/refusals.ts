// Refused token requests in the audit log (`token.refused`). Only a client id that exists names a
// company whose log can hold the entry; an unknown id is only counted by the throttle. Written in
// its own statement: the refusal has no transaction to join.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit } from '../audit/public.js';

type RefusalReason = 'invalid_credentials' | 'client_expired' | 'address_not_allowed' | 'scope_not_granted';

interface Refusal {
  db: Db;
  clock: Clock;
  clientId: string;
  ip: string;
  requestId: string;
}

/** Records why a token request of `clientId` was refused, when the client exists (`companyId` when already known). */
export async function refuseToken(
  refusal: Refusal,
  reason: RefusalReason,
  companyId?: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  const { db, clock, clientId, ip, requestId } = refusal;
  const company =
    companyId ??
    (await db.selectFrom('api_clients').select('company_id').where('id', '=', clientId).executeTakeFirst())?.company_id;
  if (!company) return;
  await recordAudit(db, clock, {
    companyId: company,
    action: 'token.refused',
    actor: clientId,
    target: clientId,
    ip,
    requestId,
    details: { reason, ...details },
  });
}
