// RFC 7662 introspection: a client asks about a token it holds. An app learns which company approved
// the grant behind an access or refresh token (an app serving many companies files tokens under it),
// an API client its own company. Only the caller's own tokens are described, and only while they work
// (unexpired, unrevoked, a refresh token not yet exchanged); anything else is `{active: false}`,
// which tells nothing about the token.
import { companyNameAndZone, describeClientToken } from '../auth/public.js';
import type { Caller, OAuthCtx } from './client-auth.js';
import { findRefreshToken } from './grants.js';

const seconds = (instant: string) => Math.floor(Date.parse(instant) / 1000);

export async function introspect(ctx: OAuthCtx, caller: Caller, body: { token: string; token_type_hint?: string }) {
  const { db, clock } = ctx;
  const now = clock.now().getTime();
  const refresh =
    caller.kind === 'app' && body.token_type_hint !== 'access_token'
      ? await findRefreshToken(db, body.token)
      : undefined;
  if (refresh && refresh.app_id === caller.clientId) {
    const works = refresh.revoked_at === null && refresh.used_at === null && Date.parse(refresh.expires_at) > now;
    const company = works ? await companyNameAndZone(db, refresh.company_id) : undefined;
    if (!company) return { active: false };
    return {
      active: true,
      scope: refresh.scopes,
      client_id: caller.clientId,
      token_type: 'refresh_token' as const,
      company_id: refresh.company_id,
      company_name: company.name,
      iat: seconds(refresh.created_at),
      exp: seconds(refresh.expires_at),
    };
  }
  const access = await describeClientToken(db, body.token, caller.clientId);
  if (!access || access.revoked || Date.parse(access.expiresAt) <= now) return { active: false };
  return {
    active: true,
    scope: access.scopes.join(' '),
    client_id: caller.clientId,
    token_type: 'Bearer' as const,
    company_id: access.companyId,
    company_name: access.companyName,
    iat: seconds(access.createdAt),
    exp: seconds(access.expiresAt),
  };
}
