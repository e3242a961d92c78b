// An access token as the client it was issued to may ask about it (RFC 7662 introspection) or end it
// (RFC 7009 revocation): an API client's token, or an app grant's (`oat_…`). A token of another
// client is as unknown as one never issued.
import type { Db } from '../../db/database.js';
import { digestToken } from './secrets.js';
import { GRANT_TOKEN_PREFIX } from './grant-tokens.js';

interface AccessTokenInfo {
  companyId: string;
  companyName: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string;
  /** Revoked: the token, its grant or its API client. */
  revoked: boolean;
}

/** The access token when `clientId` (an API client's or an app's id) holds it, else undefined. */
export async function describeClientToken(
  db: Db,
  token: string,
  clientId: string,
): Promise<AccessTokenInfo | undefined> {
  const digest = digestToken(token);
  const row = token.startsWith(GRANT_TOKEN_PREFIX)
    ? await db
        .selectFrom('grant_access_tokens as t')
        .innerJoin('companies as co', 'co.id', 't.company_id')
        .select(['t.company_id', 'co.name', 't.scopes', 't.created_at', 't.expires_at', 't.revoked_at'])
        .where('t.token_hash', '=', digest)
        .where('t.app_id', '=', clientId)
        .executeTakeFirst()
    : undefined;
  const found =
    row ??
    (await db
      .selectFrom('access_tokens as t')
      .innerJoin('api_clients as c', 'c.id', 't.client_id')
      .innerJoin('companies as co', 'co.id', 't.company_id')
      .select(['t.company_id', 'co.name', 't.scopes', 't.created_at', 't.expires_at', 'c.revoked_at'])
      .where('t.token_hash', '=', digest)
      .where('t.client_id', '=', clientId)
      .executeTakeFirst());
  if (!found) return undefined;
  return {
    companyId: found.company_id,
    companyName: found.name,
    scopes: found.scopes.split(' ').filter(Boolean),
    createdAt: new Date(found.created_at).toISOString(),
    expiresAt: new Date(found.expires_at).toISOString(),
    revoked: found.revoked_at !== null,
  };
}

/** RFC 7009 for an API client: its own access token ends (it is deleted, as a rotation deletes them). */
export async function revokeClientToken(db: Db, token: string, clientId: string): Promise<void> {
  await db
    .deleteFrom('access_tokens')
    .where('token_hash', '=', digestToken(token))
    .where('client_id', '=', clientId)
    .execute();
}
