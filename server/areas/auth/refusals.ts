// Refused token requests in the audit log (`token.refused`). Only a client id that exists names a
// company whose log can hold the entry; an unknown id is only counted by the throttle. An app serves
// many companies: its refusal is written in the company of the grant whose code or refresh token it
// presented (the apps area passes it), whoever presented it. Written in its own statement: the
// refusal has no transaction to join.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { recordAudit } from '../audit/public.js';

type RefusalReason =
  | 'invalid_credentials'
  | 'client_revoked'
  | 'client_expired'
  | 'address_not_allowed'
  | 'scope_not_granted'
  // An app's code or refresh token (server/areas/apps/token-grants.ts), in the company of its grant.
  | 'other_client'
  | 'code_reused'
  | 'code_expired'
  | 'redirect_uri_mismatch'
  | 'pkce_mismatch'
  | 'refresh_token_reused'
  | 'refresh_token_expired'
  | 'grant_revoked'
  | 'invalid_target';

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
  const known =
    companyId === undefined
      ? await db
          .selectFrom('api_clients')
          .select(['company_id', 'revoked_at'])
          .where('id', '=', clientId)
          .executeTakeFirst()
      : { company_id: companyId, revoked_at: null };
  if (!known) return;
  const company = known.company_id;
  // Any secret of a revoked client is refused: the log says the client is revoked, not that the secret was wrong.
  const why: RefusalReason = reason === 'invalid_credentials' && known.revoked_at !== null ? 'client_revoked' : reason;
  await recordAudit(db, clock, {
    companyId: company,
    action: 'token.refused',
    actor: clientId,
    target: clientId,
    ip,
    requestId,
    details: { reason: why, ...details },
  });
}
