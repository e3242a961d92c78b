// Row types of apps acting for companies (migration 0022). Codes and tokens are SHA-256 digests (hex).
export interface OAuthAppRow {
  /** Public client id, `app_` + 24 hex characters. */
  id: string;
  name: string;
  /** JSON array of the registered redirect URIs. */
  redirect_uris: string;
  /** `none` (public client), `client_secret_basic` or `client_secret_post`. */
  auth_method: string;
  /** scrypt hash of a confidential client's secret. */
  secret_hash: string | null;
  /** Space-separated scopes the app may ask for; null: any. */
  scope: string | null;
  created_at: string;
  /** When a registration never approved is forgotten; null once a company approved it. */
  unused_expires_at: string | null;
}

export interface ApprovalCodeRow {
  code_hash: string;
  company_id: string;
  /** Space-separated scopes an app approved with it may get at most; null: no ceiling. */
  scope_ceiling: string | null;
  /** Who made it: an API client id, or `cli`. */
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OAuthGrantRow {
  /** `grt_` + 24 hex characters. */
  id: string;
  company_id: string;
  app_id: string;
  scopes: string;
  /** The RFC 8707 resource the tokens are for (this API's base URL), when the app named it. */
  resource: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface OAuthCodeRow {
  code_hash: string;
  grant_id: string;
  app_id: string;
  redirect_uri: string;
  /**
   * 1 when the authorization request named no redirect_uri (the app's one registered URI was used):
   * the token request may then omit it (RFC 6749 §4.1.3). Migration 0040.
   */
  redirect_uri_implied: number;
  /** The PKCE S256 challenge (base64url). */
  code_challenge: string;
  expires_at: string;
  used_at: string | null;
}

export interface OAuthRefreshTokenRow {
  token_hash: string;
  grant_id: string;
  created_at: string;
  expires_at: string;
  /** When it was exchanged for the next one; presenting it again after that revokes the grant. */
  used_at: string | null;
}

export interface AppsTables {
  oauth_apps: OAuthAppRow;
  approval_codes: ApprovalCodeRow;
  oauth_grants: OAuthGrantRow;
  oauth_codes: OAuthCodeRow;
  oauth_refresh_tokens: OAuthRefreshTokenRow;
}
