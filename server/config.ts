// Runtime configuration. `loadConfig` reads the environment; tests build one with `testConfig`.
import { randomBytes } from 'node:crypto';
import { checkSettings } from './settings.js';

export interface Config {
  /** Public base URL of this server, used for signed URLs and `Location` headers. */
  baseUrl: string;
  /**
   * `PUBLIC_BASE_URL` as given. The served contract and docs name it as their server; when it is
   * not given, the sandbox names the host the request came to.
   */
  publicBaseUrl: string | undefined;
  /** Production (`NODE_ENV=production`): no default CORS origins, contract servers from `baseUrl`. */
  production: boolean;
  /**
   * Browser origins allowed by CORS (`CORS_ORIGINS`, comma-separated). An entry ending in `:*`
   * allows any port of that scheme and host. Default: the sandbox allows `http://localhost:*` and
   * `http://127.0.0.1:*`, production none.
   */
  corsOrigins: string[];
  /** Folder for uploaded files and other data next to the database. */
  dataDir: string;
  tokenTtlSeconds: number;
  /** Days an audit entry is kept (`AUDIT_RETENTION_DAYS`, at least 400). */
  auditRetentionDays: number;
  /** Days without a token after which an API client is revoked (`CLIENT_UNUSED_EXPIRY_DAYS`); 0: never. */
  clientUnusedExpiryDays: number;
  /** Requests per minute per client (token endpoint: per address). 0 turns limiting off. */
  rateLimitPerMinute: number;
  /**
   * `RATE_LIMIT_FALLBACK_REPLICAS`: the replicas sharing the limit; while Redis is unreachable each
   * process counts its share of it in memory (server/http/ops/rate-limit-fallback.ts). Unset: the
   * database counts.
   */
  rateLimitFallbackReplicas?: number;
  /** Statement exports one company may run at once (`EXPORTS_PER_COMPANY`, 2); beyond, 429. */
  exportsPerCompany: number;
  /**
   * Failed authentications of one client id from one source address per minute before that pair
   * gets 429 (`AUTH_FAILURES_PER_MINUTE`, 10; 0 turns it off). The same client id from another
   * address is not affected (server/areas/auth/throttle.ts).
   */
  authFailuresPerMinute: number;
  /** Failed client authentications from one source address per minute, whatever the client id, before 429 (`AUTH_SOURCE_FAILURES_PER_MINUTE`, 30; 0 turns it off). */
  authSourceFailuresPerMinute: number;
  /**
   * Express's `trust proxy` (`TRUST_PROXY`): which peers may name the client's address in
   * X-Forwarded-For. Unset or `false`: none, the source is the TCP peer. A number: that many proxy
   * hops. Otherwise a comma-separated list of addresses, CIDR ranges or Express's names
   * (`loopback`, `linklocal`, `uniquelocal`). `true` trusts any peer: only behind a proxy that
   * overwrites the header.
   */
  trustProxy: boolean | number | string[];
  /**
   * Load shedding: while the event loop runs more than this many milliseconds behind, API requests
   * get 503 with Retry-After instead of queueing. 0 turns shedding off.
   */
  overloadMaxLagMs: number;
  /**
   * Admission control (`OVERLOAD_MAX_IN_FLIGHT`): requests one process serves at once; one more gets
   * 503 with Retry-After at once (server/http/ops/admission.ts). 0 turns it off.
   */
  overloadMaxInFlight: number;
  /** Validate every response against the contract (development and tests). */
  validateResponses: boolean;
  vcnEnabled: boolean;
  /** `CARD_ISSUER`: the simulated issuer (the sandbox) or none (production: VCN operations answer 503). */
  cardIssuer: 'simulated' | 'none';
  /** The sandbox's test helpers and test clock (`/sandbox/v1/…`): on unless production, where `SANDBOX_HELPERS=true` turns them on. */
  sandboxHelpers: boolean;
  /** `/mcp`, the API as MCP tools: on unless production, where `MCP_ENDPOINT=true` turns it on. */
  mcpEndpoint: boolean;
  /** Webhook URLs may point at private, loopback and link-local addresses (the sandbox; WEBHOOKS_ALLOW_PRIVATE=true). */
  webhooksAllowPrivate: boolean;
  /** Server secrets, each 32 bytes. */
  secrets: {
    /** HMAC key of list page keys and change-feed cursors. */
    cursor: Buffer;
    /** `CURSOR_SECRET_PREVIOUS`: during a rotation, page keys and feed cursors it signed are still accepted. */
    cursorPrevious?: Buffer;
    /** HMAC key of signed download and upload URLs and of the consent form. */
    urls: Buffer;
    /** `URL_SIGNING_SECRET_PREVIOUS`: during a rotation, URLs and consent forms it signed are still accepted. */
    urlsPrevious?: Buffer;
    /** AES-256-GCM key of stored card numbers. */
    panKey: Buffer;
    /** `PAN_ENCRYPTION_KEY_PREVIOUS`: during a rotation, card numbers it sealed still open. */
    panKeyPrevious?: Buffer;
    /** HMAC key from which CVVs are derived. */
    cvvKey: Buffer;
    /** AES-256-GCM key of stored Idempotency-Key responses. */
    idempotencyKey: Buffer;
    /** `IDEMPOTENCY_ENCRYPTION_KEY_PREVIOUS`: during a rotation, responses it sealed still open. */
    idempotencyKeyPrevious?: Buffer;
  };
  logLevel: string;
  /** On SIGTERM/SIGINT, how long in-flight requests may still run after the drain (`SHUTDOWN_GRACE_MS`, 30 s). */
  shutdownGraceMs: number;
  /** On SIGTERM/SIGINT, how long `/ready` fails while the listener still serves (`SHUTDOWN_DRAIN_MS`: 5 s in production, 0 in the sandbox). */
  shutdownDrainMs: number;
  /** `PG_KEEP_VERSION_MS`: how long a statement data version is kept between requests (PostgreSQL, 1 s; 0: never). */
  keepVersionMs: number;
  /** `ANSWER_CACHE_MB`: the statement lists' and feeds' answers kept by ETag, per process (16 MB; 0: none). */
  answerCacheBytes: number;
  /** `METRICS_TOKEN`: `/metrics` needs `Authorization: Bearer <token>`. Production without it serves no `/metrics` on the API port. */
  metricsToken: string | undefined;
  /** `METRICS_PORT`: `/metrics` is served on this port only, not on the API's. */
  metricsPort: number | undefined;
}

const secret = (value: string | undefined, name: string): Buffer => {
  if (!value) return randomBytes(32);
  const key = Buffer.from(value, 'hex');
  if (key.length !== 32) throw new Error(`${name} must be 64 hex characters (32 bytes)`);
  return key;
};

const SANDBOX_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*'];

/** `CORS_ORIGINS`: a comma-separated list; empty means none. Unset: undefined (the default applies). */
function parseOrigins(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^[0-9]{1,3}$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A whole number already checked by checkSettings (server/settings.ts), or the fallback when unset. */
const nonNegative = (value: string | undefined, _name: string, fallback: number): number =>
  value === undefined || value === '' ? fallback : Number(value);

const previous = (value: string | undefined) => (value ? Buffer.from(value, 'hex') : undefined);

/** Whether the sandbox helpers exist: always outside production, in production only with `SANDBOX_HELPERS=true`. */
export const sandboxHelpersEnabled = (env: NodeJS.ProcessEnv): boolean =>
  env.NODE_ENV !== 'production' || env.SANDBOX_HELPERS === 'true';

/**
 * Reads the configuration from the environment, checked against server/settings.ts (a bad value
 * throws a SettingsError naming it). Missing secrets come from the database (see main).
 */
export function loadConfig(env: NodeJS.ProcessEnv, overrides: Partial<Config> = {}): Config {
  checkSettings(env, { required: false });
  const port = Number(env.PORT || 8080);
  const production = env.NODE_ENV === 'production';
  return {
    baseUrl: env.PUBLIC_BASE_URL ?? `http://localhost:${port}`,
    publicBaseUrl: env.PUBLIC_BASE_URL || undefined,
    production,
    corsOrigins: parseOrigins(env.CORS_ORIGINS) ?? (production ? [] : SANDBOX_ORIGINS),
    dataDir: env.DATA_DIR ?? './data',
    tokenTtlSeconds: 1800,
    auditRetentionDays: nonNegative(env.AUDIT_RETENTION_DAYS, 'AUDIT_RETENTION_DAYS', 400),
    clientUnusedExpiryDays: nonNegative(env.CLIENT_UNUSED_EXPIRY_DAYS, 'CLIENT_UNUSED_EXPIRY_DAYS', 0),
    rateLimitPerMinute: nonNegative(env.RATE_LIMIT_PER_MINUTE, 'RATE_LIMIT_PER_MINUTE', 600),
    rateLimitFallbackReplicas: env.RATE_LIMIT_FALLBACK_REPLICAS ? Number(env.RATE_LIMIT_FALLBACK_REPLICAS) : undefined,
    exportsPerCompany: nonNegative(env.EXPORTS_PER_COMPANY, 'EXPORTS_PER_COMPANY', 2),
    authFailuresPerMinute: nonNegative(env.AUTH_FAILURES_PER_MINUTE, 'AUTH_FAILURES_PER_MINUTE', 10),
    authSourceFailuresPerMinute: nonNegative(
      env.AUTH_SOURCE_FAILURES_PER_MINUTE,
      'AUTH_SOURCE_FAILURES_PER_MINUTE',
      30,
    ),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    // Shedding protects production latency; the sandbox answers everything (a developer's own load tests expect answers).
    overloadMaxLagMs: nonNegative(env.OVERLOAD_MAX_LAG_MS, 'OVERLOAD_MAX_LAG_MS', production ? 100 : 0),
    overloadMaxInFlight: nonNegative(env.OVERLOAD_MAX_IN_FLIGHT, 'OVERLOAD_MAX_IN_FLIGHT', production ? 64 : 0),
    validateResponses: env.VALIDATE_RESPONSES ? env.VALIDATE_RESPONSES === 'true' : env.NODE_ENV !== 'production',
    vcnEnabled: (env.VCN_ENABLED ?? 'true') !== 'false',
    cardIssuer: env.CARD_ISSUER ? (env.CARD_ISSUER as Config['cardIssuer']) : production ? 'none' : 'simulated',
    sandboxHelpers: sandboxHelpersEnabled(env),
    mcpEndpoint: env.MCP_ENDPOINT ? env.MCP_ENDPOINT === 'true' : !production,
    webhooksAllowPrivate:
      env.WEBHOOKS_ALLOW_PRIVATE !== undefined ? env.WEBHOOKS_ALLOW_PRIVATE === 'true' : env.NODE_ENV !== 'production',
    secrets: {
      cursor: secret(env.CURSOR_SECRET, 'CURSOR_SECRET'),
      cursorPrevious: previous(env.CURSOR_SECRET_PREVIOUS),
      urls: secret(env.URL_SIGNING_SECRET, 'URL_SIGNING_SECRET'),
      urlsPrevious: previous(env.URL_SIGNING_SECRET_PREVIOUS),
      panKey: secret(env.PAN_ENCRYPTION_KEY, 'PAN_ENCRYPTION_KEY'),
      panKeyPrevious: previous(env.PAN_ENCRYPTION_KEY_PREVIOUS),
      cvvKey: secret(env.CVV_KEY, 'CVV_KEY'),
      idempotencyKey: secret(env.IDEMPOTENCY_ENCRYPTION_KEY, 'IDEMPOTENCY_ENCRYPTION_KEY'),
      idempotencyKeyPrevious: previous(env.IDEMPOTENCY_ENCRYPTION_KEY_PREVIOUS),
    },
    logLevel: env.LOG_LEVEL || 'info',
    shutdownGraceMs: nonNegative(env.SHUTDOWN_GRACE_MS, 'SHUTDOWN_GRACE_MS', 30_000),
    // A load balancer needs a few probe periods to stop sending; the sandbox stops at once.
    shutdownDrainMs: nonNegative(env.SHUTDOWN_DRAIN_MS, 'SHUTDOWN_DRAIN_MS', production ? 5_000 : 0),
    keepVersionMs: nonNegative(env.PG_KEEP_VERSION_MS, 'PG_KEEP_VERSION_MS', 1_000),
    answerCacheBytes: nonNegative(env.ANSWER_CACHE_MB, 'ANSWER_CACHE_MB', 16) * 1024 * 1024,
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? nonNegative(env.METRICS_PORT, 'METRICS_PORT', 0) : undefined,
    ...overrides,
  };
}

/** A configuration for tests: fresh random secrets, no rate limit, responses validated, quiet logs. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {},
    {
      rateLimitPerMinute: 0,
      overloadMaxLagMs: 0,
      validateResponses: true,
      logLevel: 'silent',
      dataDir: '',
      ...overrides,
    },
  );
}
