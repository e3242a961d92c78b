// Apps never hold the keys to the company (server/areas/auth/store.ts, FIRST_PARTY_SCOPES): the
// scopes that administer its credentials, apps, webhook endpoints, audit log or sandbox leave every
// live app grant and access token (a grant left with no scope is revoked with its tokens), and the
// API clients an app created with `clients:manage` are revoked, each with an `api_client.revoked`
// audit entry by `system`: they would outlive the grant of the app that made them. Also
// `oauth_codes.redirect_uri_implied`: 1 when the authorization request named no redirect_uri (the
// app's one registered URI was used), so the token request may omit it (RFC 6749 §4.1.3).
import type { ExpressionBuilder, Kysely } from 'kysely';
import { monotonicUlids } from '../../lib/ulid.js';

// As they were when this ran: a later change of the list is a later migration's.
const FIRST_PARTY = new Set(['clients:manage', 'apps:manage', 'webhooks:write', 'audit:read', 'sandbox:write']);

const forApp = (scopes: string) =>
  scopes
    .split(' ')
    .filter((s) => s && !FIRST_PARTY.has(s))
    .join(' ');

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('oauth_codes')
    .addColumn('redirect_uri_implied', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  const now = new Date().toISOString();
  const holding = (eb: ExpressionBuilder<any, any>) =>
    eb.or([...FIRST_PARTY].map((scope) => eb('scopes', 'like', `%${scope}%`)));
  const grants: { id: string; scopes: string }[] = await db
    .selectFrom('oauth_grants')
    .select(['id', 'scopes'])
    .where('revoked_at', 'is', null)
    .where(holding)
    .execute();
  for (const grant of grants) {
    const kept = forApp(grant.scopes);
    if (kept === grant.scopes) continue;
    if (kept) await db.updateTable('oauth_grants').set({ scopes: kept }).where('id', '=', grant.id).execute();
    else {
      await db.updateTable('oauth_grants').set({ revoked_at: now }).where('id', '=', grant.id).execute();
      await db
        .updateTable('grant_access_tokens')
        .set({ revoked_at: now })
        .where('grant_id', '=', grant.id)
        .where('revoked_at', 'is', null)
        .execute();
    }
  }
  const tokens: { token_hash: string; scopes: string }[] = await db
    .selectFrom('grant_access_tokens')
    .select(['token_hash', 'scopes'])
    .where('revoked_at', 'is', null)
    .where(holding)
    .execute();
  for (const token of tokens) {
    const kept = forApp(token.scopes);
    if (kept === token.scopes) continue;
    await db
      .updateTable('grant_access_tokens')
      .set(kept ? { scopes: kept } : { revoked_at: now })
      .where('token_hash', '=', token.token_hash)
      .execute();
  }

  // An app's id is `app_` + hex; `_` is a LIKE wildcard, so the prefix is checked again here.
  const made: { id: string; company_id: string; created_by: string }[] = await db
    .selectFrom('api_clients')
    .select(['id', 'company_id', 'created_by'])
    .where('created_by', 'like', 'app%')
    .where('revoked_at', 'is', null)
    .execute();
  const auditId = monotonicUlids();
  for (const client of made.filter((c) => c.created_by.startsWith('app_'))) {
    await db.updateTable('api_clients').set({ revoked_at: now }).where('id', '=', client.id).execute();
    await db
      .insertInto('audit_entries')
      .values({
        id: `aud_${auditId(Date.parse(now))}`,
        company_id: client.company_id,
        action: 'api_client.revoked',
        actor: 'system',
        target: client.id,
        ip: null,
        request_id: null,
        created_at: now,
        details: JSON.stringify({ reason: 'created by an app', appId: client.created_by }),
      })
      .execute();
  }
}
