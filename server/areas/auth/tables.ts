// Row types of companies, API clients and access tokens (migrations 0001, 0017, 0026).
import type { Generated } from 'kysely';

export interface CompanyRow {
  id: string;
  name: string;
  time_zone: string;
  created_at: string;
  /** How far the company's clock runs ahead of wall time (sandbox test clocks); 0 until moved. */
  clock_offset_ms: Generated<number>;
}

export interface ApiClientRow {
  /** Public client id, `cli_` + 24 hex characters. */
  id: string;
  company_id: string;
  /** scrypt$N$r$p$salt$hash of the client secret. */
  secret_hash: string;
  /** Space-separated granted scopes. */
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  /** After a rotation with a grace (migration 0017): the old secret's hash, accepted until `previous_secret_expires_at`. */
  previous_secret_hash: string | null;
  previous_secret_expires_at: string | null;
  /** When the client was last given a token (ISO). */
  last_used_at: string | null;
  /** Migration 0026: what the client is for (null for clients made by the CLI). */
  name: string | null;
  /** The API client id that created it, `cli`, `system`; null for clients older than 0026. */
  created_by: string | null;
  /** JSON array of canonical CIDR blocks the client may get tokens from; null: any address. */
  allowed_ips: string | null;
  /** When the client stops getting tokens (ISO); null: never. */
  expires_at: string | null;
  /** The address of its last token request that got a token. */
  last_used_ip: string | null;
}

export interface AccessTokenRow {
  /** SHA-256 (hex) of the access token; the token itself is never stored. */
  token_hash: string;
  client_id: string;
  company_id: string;
  scopes: string;
  expires_at: string;
  created_at: string;
}

/**
 * An access token of an app's grant (authorization code, migration 0022): like an API client's, with the
 * grant it came from; `revoked_at` is set when the grant (or this token, RFC 7009) is revoked.
 */
export interface GrantAccessTokenRow {
  /** SHA-256 (hex) of the token (`oat_…`). */
  token_hash: string;
  grant_id: string;
  /** The app's client id. */
  app_id: string;
  company_id: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface ServerSecretRow {
  name: string;
  value: string;
}

/**
 * Failed client authentications in the current one-minute window (migrations 0007, 0012), of one
 * source address (`source <address>`) or of one client id from one source (`client <id> from <address>`).
 */
export interface AuthFailureRow {
  counter_key: string;
  /** Epoch milliseconds; bigint columns may come back as strings on some drivers. */
  window_start: number | string;
  failures: number;
}

export interface AuthTables {
  companies: CompanyRow;
  api_clients: ApiClientRow;
  access_tokens: AccessTokenRow;
  grant_access_tokens: GrantAccessTokenRow;
  server_secrets: ServerSecretRow;
  auth_failures: AuthFailureRow;
}
